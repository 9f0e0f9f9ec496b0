package io.webhookbuffer.delivery;

import java.util.function.BooleanSupplier;

import io.webhookbuffer.common.BufferClock;
import io.webhookbuffer.common.FifoPermits;
import io.webhookbuffer.common.OriginConfig;
import io.webhookbuffer.egress.OriginTrust;
import io.webhookbuffer.queue.DrainStore;
import io.webhookbuffer.tenant.TenantDirectory;

/**
 * What every tenant's drain on this replica shares. {@code holder} names this replica in the leases it takes.
 * {@code bulkhead}: at most buffer.delivery.max-concurrent batches in flight across all tenants, the rest in arrival
 * order; each tenant has at most one batch in flight, so first-come-first-served is also round-robin between tenants:
 * a tenant with a huge backlog gets one slot in turn like everyone else. {@code prefetchFreshNanos}: how long a head
 * read with the last delete may wait for its bulkhead slot and still be sent without a read of its own (see
 * {@link #prefetchFreshNanos(DeliveryConfig)}). {@code slowLane}: as many slots again, for tenants whose origins
 * answer slower than {@link #slowAfterMillis()}, so that they cannot hold the bulkhead for long ({@link SlowLane}).
 * {@code trust}: which origins a batch may go to.
 */
record DrainParts(String holder, DeliveryConfig config, DrainStore store, TenantDirectory tenants,
        OriginConfig origin, BufferClock clock, FifoPermits bulkhead, FifoPermits slowLane,
        long prefetchFreshNanos,
        OriginBreakers breakers, OutcomeWriter outcomes, DrainSweep sweep, BackoffPolicy backoff,
        DeliveryCounts counts, OriginTrust trust, BooleanSupplier stoppedFlag) {

    /** Shutting down: no new step starts. */
    boolean stopped() {
        return stoppedFlag.getAsBoolean();
    }

    /**
     * An origin still silent after this long is slow (a tenth of the request timeout, 1 s by default): well above
     * what a healthy origin takes for a batch, and short enough that a slow one gives its main slot back early.
     */
    long slowAfterMillis() {
        return Math.max(1, config.requestTimeout().toMillis() / 10);
    }

    /**
     * Half of what the lease TTL leaves after the origin's request timeout, so the renewal that came with a prefetched
     * head still covers the whole exchange (0, never, if the TTL leaves no room).
     */
    static long prefetchFreshNanos(DeliveryConfig config) {
        return Math.max(0, config.leaseTtl().minus(config.requestTimeout()).minusSeconds(1).toNanos() / 2);
    }
}
