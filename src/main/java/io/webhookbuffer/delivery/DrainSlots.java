package io.webhookbuffer.delivery;

import io.webhookbuffer.common.FifoPermits;

/**
 * The delivery slots every tenant's drain on this replica shares. {@code bulkhead}: at most
 * buffer.delivery.max-concurrent batches in flight across all tenants, the rest in arrival order; each tenant has at
 * most one batch in flight, so first-come-first-served is also round-robin between tenants: a tenant with a huge
 * backlog gets one slot in turn like everyone else. {@code slowLane}: as many slots again, for tenants whose origins
 * answer slower than {@code slowAfterMillis}, so that they cannot hold the bulkhead for long ({@link SlowLane}).
 */
record DrainSlots(FifoPermits bulkhead, FifoPermits slowLane, long slowAfterMillis) {

    /**
     * An origin still silent after a tenth of the request timeout (1 s by default) is slow: well above what a healthy
     * origin takes for a batch, and short enough that a slow one gives its main slot back early.
     */
    static DrainSlots of(DeliveryConfig config) {
        return new DrainSlots(new FifoPermits(config.maxConcurrent()), new FifoPermits(config.maxConcurrent()),
                Math.max(1, config.requestTimeout().toMillis() / 10));
    }
}
