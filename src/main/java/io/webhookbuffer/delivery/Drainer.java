package io.webhookbuffer.delivery;

import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.vertx.core.Vertx;
import io.webhookbuffer.common.BufferClock;
import io.webhookbuffer.common.OriginConfig;
import io.webhookbuffer.egress.OriginTrust;
import io.webhookbuffer.queue.DrainScheduler;
import io.webhookbuffer.queue.DrainStore;
import io.webhookbuffer.tenant.TenantDirectory;
import io.webhookbuffer.usage.UsageCounters;

/**
 * Drains each tenant's queue to its origin: one drainer per tenant across the cluster (a fenced lease in
 * PostgreSQL), oldest rows first, one batch in flight per tenant. Runs only while there is work: the tenant's actor
 * wakes it when an event is stored, a timer when a backoff ends, and a periodic sweep finds tenants with pending
 * rows that nobody holds (after a restart, or when a replica died holding a lease).
 *
 * <p>Outcomes: 2xx deletes exactly the delivered row ids (and dead-letters the ones the origin listed in
 * {@code rejected}); every other answer is attributed by {@link FailurePolicy}: the origin's own trouble backs the
 * tenant off and never counts toward dead letters; a refused event, or one that keeps failing alone while the origin
 * accepts other batches, is isolated by halving and dead-lettered; so is a failing event deliverable for
 * longer than {@code max-age}.
 * Delivery is at-least-once: a crash between the origin's 2xx and the delete re-delivers the batch.
 *
 * <p>The parts: {@link TenantDrain} (a tenant's steps) around {@link TenantLease} (the lease and the cursor), given
 * what every tenant's drain shares: {@link LeaseTerms}, {@link DrainSlots} (bulkhead and slow lane), {@link OriginRoute},
 * {@link BatchPlanner} (which rows, when), {@link OriginBreakers} (the origin client behind its breakers),
 * {@link OutcomeWriter} (an answer's effect on the queue), {@link DrainSweep}, {@link DrainShutdown}, all on the
 * {@link BufferClock}.
 */
@ApplicationScoped
public class Drainer implements DrainScheduler {

    private final DeliveryConfig config;
    private final DrainStore store;
    private final Vertx vertx;
    private final BufferClock clock;
    private final OriginBreakers breakers;
    private final DeliveryCounts counts;
    private final DrainSweep sweep;
    private final LeaseTerms terms;
    private final DrainSlots slots;
    private final OriginRoute route;
    private final OutcomeWriter outcomes;
    private final BackoffPolicy backoff;
    private final Map<String, TenantDrain> drains = new ConcurrentHashMap<>();
    private volatile boolean stopped;

    public Drainer(DrainStore store, TenantDirectory tenants, OriginBreakers breakers, OriginConfig origin,
            DeliveryConfig config, Vertx vertx, BufferClock clock, UsageCounters usage, OriginTrust trust) {
        this.config = config;
        this.store = store;
        this.vertx = vertx;
        this.clock = clock;
        this.breakers = breakers;
        this.counts = new DeliveryCounts(usage);
        this.sweep = new DrainSweep(store, DrainSweep.DRAINS_PER_SLOT * config.maxConcurrent(), this::wake, () -> stopped);
        this.backoff = new BackoffPolicy(config.backoffBase(), config.backoffCap(),
                () -> ThreadLocalRandom.current().nextDouble());
        FailurePolicy policy = new FailurePolicy(backoff, config.maxAttempts(), config.maxAge(),
                config.circuitBreaker().delay());
        this.terms = new LeaseTerms("buffer-" + UUID.randomUUID(), store, config, clock, counts, () -> stopped);
        this.slots = DrainSlots.of(config);
        this.route = new OriginRoute(tenants, origin, trust, breakers);
        this.outcomes = new OutcomeWriter(store, policy, counts, clock);
    }

    @Override
    public void wake(String tenantId) {
        if (config.enabled() && !stopped) {
            TenantDrain drain = drains.computeIfAbsent(tenantId,
                    id -> new TenantDrain(id, terms, slots, route, outcomes, backoff, sweep, () -> wake(id)));
            if (!drain.wake()) {
                drains.remove(tenantId, drain); // retired just now: the next turn makes a fresh one
                wake(tenantId);
            }
        }
    }

    /**
     * Drops the drains idle longer than the backoff cap (the longest wait a drain holds its state through), so the map
     * holds the tenants delivered to lately, not every tenant ever seen. A dropped tenant's next wake starts afresh:
     * it keeps nothing an idle drain needs (no rows in memory, no lease, no timer); the status page then shows no
     * delivery state for it on this replica, as for a tenant it never drained.
     */
    void evictIdle() {
        long idleSince = clock.millis() - config.backoffCap().toMillis();
        drains.forEach((tenantId, drain) -> {
            if (drain.retire(idleSince)) {
                drains.remove(tenantId, drain);
            }
        });
    }

    /** Tenants with a drain on this replica (for tests and diagnostics). */
    int drains() {
        return drains.size();
    }

    void start(@Observes StartupEvent event) {
        if (config.enabled()) {
            vertx.setPeriodic(config.sweepInterval().toMillis(), id -> {
                sweep.sweep();
                evictIdle();
            });
            sweep.sweep(); // a restart drains every backlog without waiting for new traffic
        }
    }

    /** See {@link DrainShutdown}. */
    void stop(@Observes ShutdownEvent event) {
        stopped = true;
        if (config.enabled()) {
            DrainShutdown.run(drains.values(), store, config.requestTimeout(), clock);
        }
    }

    /** What the status page shows of a tenant's delivery on this replica; null when this replica never drained it. */
    public DrainView view(String tenantId) {
        TenantDrain d = drains.get(tenantId);
        return d == null ? null : d.view(clock.millis());
    }

    /** Origins whose breaker is open now (bounded by the number of distinct origins). */
    public Set<String> openCircuits() {
        return breakers.openCircuits();
    }

    /** See {@link DrainSweep}. */
    void sweep() {
        sweep.sweep();
    }

    /** Drains running on this replica now. */
    public int activeDrains() {
        return sweep.activeDrains();
    }

    public long delivered() {
        return counts.delivered();
    }

    public long deadLettered() {
        return counts.deadLettered();
    }

    public long failedBatches() {
        return counts.failedBatches();
    }
}
