package io.webhookbuffer.delivery;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

import org.jboss.logging.Logger;

import io.webhookbuffer.queue.DrainStore;

/**
 * Wakes tenants that have queued rows and no live drainer, cycling through all of them: at most as many as keep this
 * replica's running drains within {@link #DRAINS_PER_SLOT} per delivery slot; when that leaves tenants waiting, the next page
 * is read as drains finish ({@link #finished}), not only at the next interval. Waking a whole page at once would queue
 * one lease query per tenant on the pool, and with 100,000 tenants backlogged that queue grows faster than the leases
 * are served.
 */
final class DrainSweep {

    /**
     * Drains the sweep keeps running per delivery slot ({@code buffer.delivery.max-concurrent}): 256 with the default
     * 16. A drain holds a slot only while its batch is at the origin, and spends the rest claiming rows, renewing its
     * lease and lingering, so several per slot keep the slots busy; more would only wait for a slot while holding a
     * lease, memory and a place in the pool's queue, which is what a large backlog across many tenants (a restart after
     * an outage) must not claim at once. Was {@code buffer.delivery.sweep-batch}, set apart from the slots it feeds.
     */
    static final int DRAINS_PER_SLOT = 16;

    private static final Logger LOG = Logger.getLogger(Drainer.class);
    private static final int SWEEP_PAGE = 10_000;

    private final DrainStore store;
    private final int sweepBatch;
    private final Consumer<String> wake;
    private final BooleanSupplier stopped;
    /**
     * Drains in progress now (woken by anything, until idle; a short wait for a batch to fill or for pacing keeps one
     * in progress, a backoff does not); the sweep only fills up to its budget.
     */
    private final AtomicInteger activeDrains = new AtomicInteger();
    /** One sweep query at a time. */
    private final AtomicBoolean sweeping = new AtomicBoolean();
    /** Where the next sweep page starts (tenant id order); empty: from the beginning. */
    private volatile String sweepFrom = "";
    /** The last sweep left tenants unwoken (its page was full, or no room): sweep again as drains finish. */
    private volatile boolean sweepMore;

    DrainSweep(DrainStore store, int sweepBatch, Consumer<String> wake, BooleanSupplier stopped) {
        this.store = store;
        this.sweepBatch = sweepBatch;
        this.wake = wake;
        this.stopped = stopped;
    }

    void sweep() {
        if (stopped.getAsBoolean() || !sweeping.compareAndSet(false, true)) {
            return;
        }
        int room = Math.min(SWEEP_PAGE, sweepBatch - activeDrains.get());
        if (room <= 0) {
            sweepMore = true;
            sweeping.set(false);
            return;
        }
        sweepMore = false;
        store.undrainedTenants(room, sweepFrom).subscribe().with(ids -> {
            boolean full = ids.size() == room;
            sweepFrom = full ? ids.get(ids.size() - 1) : "";
            sweepMore = full;
            sweeping.set(false);
            ids.forEach(wake);
        }, failure -> {
            sweeping.set(false);
            LOG.warnf("drain sweep failed, retrying next interval: %s", failure.getMessage());
        });
    }

    /** A drain began. */
    void started() {
        activeDrains.incrementAndGet();
    }

    /** A drain ended (idle, or backing off): refill when the sweep left tenants waiting for room. */
    void finished() {
        if (activeDrains.decrementAndGet() <= sweepBatch / 2 && sweepMore) {
            sweep();
        }
    }

    int activeDrains() {
        return activeDrains.get();
    }
}
