package io.webhookbuffer.delivery;

import java.util.ArrayDeque;

import io.smallrye.mutiny.Uni;

/**
 * At most {@code limit} deliveries in flight across all tenants; the rest wait in arrival order. Each tenant has at
 * most one batch in flight, so first-come-first-served is also round-robin between tenants: a tenant with a huge
 * backlog gets one slot in turn like everyone else. The monitor guards two fields for nanoseconds; nothing blocks
 * while holding it.
 */
final class FairBulkhead {

    private final int limit;
    // @protectedby: this
    private int used;
    // @protectedby: this
    private final ArrayDeque<Runnable> waiting = new ArrayDeque<>();

    FairBulkhead(int limit) {
        this.limit = limit;
    }

    /** Completes when a slot is ours; the caller must {@link #release()} it exactly once. */
    Uni<Void> acquire() {
        return Uni.createFrom().emitter(emitter -> {
            boolean granted;
            synchronized (this) {
                granted = used < limit;
                if (granted) {
                    used++;
                } else {
                    waiting.add(() -> emitter.complete(null));
                }
            }
            if (granted) {
                emitter.complete(null);
            }
        });
    }

    /** Hands the slot to the longest waiter, or frees it. */
    void release() {
        Runnable next;
        synchronized (this) {
            next = waiting.poll();
            if (next == null) {
                used--;
            }
        }
        if (next != null) {
            next.run();
        }
    }

    synchronized int inUse() {
        return used;
    }

    synchronized int waiting() {
        return waiting.size();
    }
}
