package io.webhookbuffer.delivery;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

import org.jboss.logging.Logger;

import io.smallrye.mutiny.Uni;
import io.webhookbuffer.common.BufferClock;
import io.webhookbuffer.queue.DrainStore;

/**
 * Graceful shutdown: stops starting new steps (the caller has set the stopped flag), lets each step in flight finish
 * its batch (it releases its own lease: releasing it under it would let another replica re-send a batch this one is
 * about to delete), then releases the leases parked for a backoff, so other replicas take those tenants over at once
 * instead of when the wait would have ended. Bounded by {@code buffer.delivery.request-timeout} plus a second (a
 * step's longest stage is the origin's answer), so the whole shutdown fits the pod's grace period; a lease left behind
 * expires.
 */
final class DrainShutdown {

    private static final Logger LOG = Logger.getLogger(Drainer.class);

    private DrainShutdown() {
    }

    /** Runs on the shutdown thread only, never an event loop: it waits. */
    static void run(Collection<TenantDrain> drains, DrainStore store, Duration requestTimeout, BufferClock clock) {
        long deadline = clock.nanos() + requestTimeout.plusSeconds(1).toNanos();
        while (drains.stream().anyMatch(TenantDrain::running) && clock.nanos() < deadline) {
            LockSupport.parkNanos(10_000_000L);
        }
        List<Uni<Void>> releases = new ArrayList<>();
        for (TenantDrain drain : drains) {
            Long parked = drain.unpark();
            if (parked != null) {
                releases.add(store.release(drain.tenantId(), parked).onFailure().recoverWithNull());
            }
        }
        if (releases.isEmpty()) {
            return;
        }
        long left = Math.max(1, deadline - clock.nanos());
        try {
            Uni.join().all(releases).andCollectFailures().ifNoItem().after(Duration.ofNanos(left))
                    .fail().await().indefinitely();
            LOG.infof("shutdown: released %d parked drain lease(s)", releases.size());
        } catch (RuntimeException e) {
            LOG.warnf("shutdown: drain leases not all released (they expire on their own): %s", e.getMessage());
        }
    }
}
