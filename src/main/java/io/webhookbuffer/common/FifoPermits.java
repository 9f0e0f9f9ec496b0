package io.webhookbuffer.common;

import java.util.ArrayDeque;

import io.smallrye.mutiny.Uni;

/**
 * At most {@code limit} holders at once; the rest wait in arrival order, and a released permit goes straight to the
 * longest waiter. Non-blocking: {@link #acquire()} completes when the permit is ours. The monitor guards two fields for
 * nanoseconds; nothing blocks while holding it. Used for the delivery bulkhead and for tenant-cache refreshes.
 */
public final class FifoPermits {

    private final int limit;
    // @protectedby: this
    private int used;
    // @protectedby: this
    private final ArrayDeque<Runnable> waiting = new ArrayDeque<>();

    public FifoPermits(int limit) {
        this.limit = limit;
    }

    /** Completes when a permit is ours; the caller must {@link #release()} it exactly once. */
    public Uni<Void> acquire() {
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

    /** Hands the permit to the longest waiter, or frees it. */
    public void release() {
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

    public synchronized int inUse() {
        return used;
    }

    public synchronized int waiting() {
        return waiting.size();
    }
}
