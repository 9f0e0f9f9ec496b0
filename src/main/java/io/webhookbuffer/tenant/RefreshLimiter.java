package io.webhookbuffer.tenant;

import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

/**
 * Runs at most {@code limit} background refreshes at once; the rest wait here, in order. Tenants loaded together
 * (the first traffic after a start) come due for refresh together: without this, a thousand reloads would queue in
 * the shared database pool ahead of the group commit and hold every acknowledgement for hundreds of milliseconds.
 */
final class RefreshLimiter {

    private final int limit;
    // @protectedby: this
    private int running;
    // @protectedby: this
    private final ArrayDeque<Runnable> waiting = new ArrayDeque<>();

    RefreshLimiter(int limit) {
        this.limit = limit;
    }

    <T> CompletableFuture<T> submit(Supplier<? extends CompletionStage<T>> task) {
        CompletableFuture<T> result = new CompletableFuture<>();
        Runnable start = () -> {
            CompletionStage<T> stage;
            try {
                stage = task.get();
            } catch (RuntimeException e) {
                release();
                result.completeExceptionally(e);
                return;
            }
            stage.whenComplete((value, failure) -> {
                release();
                if (failure != null) {
                    result.completeExceptionally(failure);
                } else {
                    result.complete(value);
                }
            });
        };
        boolean now;
        synchronized (this) {
            now = running < limit;
            if (now) {
                running++;
            } else {
                waiting.add(start);
            }
        }
        if (now) {
            start.run();
        }
        return result;
    }

    /** Refreshes running or waiting (for tests and diagnostics). */
    synchronized int pending() {
        return running + waiting.size();
    }

    private void release() {
        Runnable next;
        synchronized (this) {
            next = waiting.poll();
            if (next == null) {
                running--;
            }
        }
        if (next != null) {
            next.run(); // takes over the slot just freed
        }
    }
}
