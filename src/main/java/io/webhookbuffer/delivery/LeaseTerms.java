package io.webhookbuffer.delivery;

import java.util.function.BooleanSupplier;

import io.webhookbuffer.common.BufferClock;
import io.webhookbuffer.queue.DrainStore;

/**
 * What a tenant's lease ({@link TenantLease}) works with on this replica: {@code holder} names this replica in the
 * leases it takes; the drain store its statements run on, with the TTL and batch size of {@code config}; the clock;
 * the delivered counts; and whether this replica is shutting down (no new step starts).
 */
record LeaseTerms(String holder, DrainStore store, DeliveryConfig config, BufferClock clock, DeliveryCounts counts,
        BooleanSupplier stoppedFlag) {

    /** Shutting down: no new step starts. */
    boolean stopped() {
        return stoppedFlag.getAsBoolean();
    }

    /**
     * How long a head read with the last delete may wait for its bulkhead slot and still be sent without a read of its
     * own: half of what the lease TTL leaves after the origin's request timeout, so the renewal that came with it still
     * covers the whole exchange (0, never, if the TTL leaves no room).
     */
    long prefetchFreshNanos() {
        return Math.max(0, config.leaseTtl().minus(config.requestTimeout()).minusSeconds(1).toNanos() / 2);
    }
}
