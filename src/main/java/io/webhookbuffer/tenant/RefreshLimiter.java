package io.webhookbuffer.tenant;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

import io.smallrye.mutiny.Uni;
import io.webhookbuffer.common.FifoPermits;

/**
 * Runs at most {@code limit} background refreshes at once; the rest wait, in order. Tenants loaded together (the
 * first traffic after a start) come due for refresh together: without this, a thousand reloads would queue in the
 * shared database pool ahead of the group commit and hold every acknowledgement for hundreds of milliseconds.
 */
final class RefreshLimiter {

    private final FifoPermits permits;

    RefreshLimiter(int limit) {
        this.permits = new FifoPermits(limit);
    }

    <T> CompletableFuture<T> submit(Supplier<? extends CompletionStage<? extends T>> task) {
        return permits.<T>withPermit(() -> Uni.createFrom().completionStage(task)).subscribeAsCompletionStage();
    }

    /** Refreshes running or waiting (for tests and diagnostics). */
    int pending() {
        return permits.inUse() + permits.waiting();
    }
}
