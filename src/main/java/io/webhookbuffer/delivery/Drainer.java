package io.webhookbuffer.delivery;

import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.util.TypeLiteral;

import org.jboss.logging.Logger;

import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import org.eclipse.microprofile.faulttolerance.exceptions.CircuitBreakerOpenException;

import io.smallrye.faulttolerance.api.Guard;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import io.webhookbuffer.common.FifoPermits;
import io.webhookbuffer.common.OriginConfig;
import io.webhookbuffer.queue.DrainScheduler;
import io.webhookbuffer.queue.DrainStore;
import io.webhookbuffer.queue.QueuedEvent;
import io.webhookbuffer.tenant.Tenant;
import io.webhookbuffer.tenant.TenantDirectory;
import io.webhookbuffer.usage.UsageCounters;
import io.webhookbuffer.usage.UsageMetric;

/**
 * Drains each tenant's queue to its origin: one drainer per tenant across the cluster (a fenced lease in
 * PostgreSQL), oldest rows first, one batch in flight per tenant. Runs only while there is work: the tenant's actor
 * wakes it when an event is stored, a timer when a backoff ends, and a periodic sweep finds tenants with pending
 * rows that nobody holds (after a restart, or when a replica died holding a lease).
 *
 * <p>Outcomes: 2xx deletes exactly the delivered row ids (and dead-letters the ones the origin listed in
 * {@code rejected}); every other answer is attributed by {@link FailurePolicy}: the origin's own trouble backs the
 * tenant off and never counts toward dead letters; a refused event, or one that keeps failing alone while the origin
 * accepts other batches, is isolated by halving and dead-lettered; so is a failing event older than {@code max-age}.
 * Delivery is at-least-once: a crash between the origin's 2xx and the delete re-delivers the batch.
 */
@ApplicationScoped
public class Drainer implements DrainScheduler {

    private static final Logger LOG = Logger.getLogger(Drainer.class);
    private static final TypeLiteral<Uni<OriginResponse>> RESPONSE_UNI = new TypeLiteral<>() {
    };
    private static final int SWEEP_PAGE = 10_000;
    /** A wait up to this long (a batch filling, pacing) keeps a drain in progress; a longer one (backoff) frees it. */
    private static final long SHORT_WAIT_MILLIS = 1_000;
    /** After another replica's lease turned us away while work was pending, look again this soon. */
    private static final long LOST_RETRY_MILLIS = 500;
    /** The cursor is rewound at least this often, so a row that committed late is never stranded behind it. */
    private static final long CURSOR_REWIND_MILLIS = 5_000;
    /** Marks a batch not sent because the origin's breaker is open (no attempt counted). */
    private static final int CIRCUIT_OPEN = -1;

    private final String holder = "buffer-" + UUID.randomUUID();
    private final DrainStore store;
    private final TenantDirectory tenants;
    private final OriginClient client;
    private final OriginConfig origin;
    private final DeliveryConfig config;
    private final Vertx vertx;
    private final BackoffPolicy backoff;
    private final FailurePolicy policy;
    /**
     * At most buffer.delivery.max-concurrent batches in flight across all tenants, the rest in arrival order. Each
     * tenant has at most one batch in flight, so first-come-first-served is also round-robin between tenants: a tenant
     * with a huge backlog gets one slot in turn like everyone else.
     */
    private final FifoPermits bulkhead;
    /**
     * How long a head read with the last delete may wait for its bulkhead slot and still be sent without a read of
     * its own: half of what the lease TTL leaves after the origin's request timeout, so the renewal that came with it
     * still covers the whole exchange (0, never, if the TTL leaves no room).
     */
    private final long prefetchFreshNanos;
    private final UsageCounters usage;
    private final Map<String, TenantDrain> drains = new ConcurrentHashMap<>();
    private final Map<String, Guard> breakers = new ConcurrentHashMap<>();
    /** What this replica has seen of each origin (keyed like the breakers, bounded by the distinct origins). */
    private final Map<String, OriginHealth> health = new ConcurrentHashMap<>();
    private final LongAdder delivered = new LongAdder();
    private final LongAdder deadLettered = new LongAdder();
    private final LongAdder failedBatches = new LongAdder();
    /** Origins (scheme://host:port) whose breaker turned the last batch away; removed on the next real send. */
    private final Map<String, Boolean> openCircuits = new ConcurrentHashMap<>();
    private final DeliveryListener listener;
    private volatile boolean stopped;
    /** Where the next sweep page starts (tenant id order); empty: from the beginning. */
    private volatile String sweepFrom = "";
    /**
     * Drains in progress now (woken by anything, until idle; a short wait for a batch to fill or for pacing keeps one
     * in progress, a backoff does not); the sweep only fills up to buffer.delivery.sweep-batch.
     */
    private final AtomicInteger activeDrains = new AtomicInteger();
    /** One sweep query at a time. */
    private final AtomicBoolean sweeping = new AtomicBoolean();
    /** The last sweep left tenants unwoken (its page was full, or no room): sweep again as drains finish. */
    private volatile boolean sweepMore;

    public Drainer(DrainStore store, TenantDirectory tenants, OriginClient client, OriginConfig origin,
            DeliveryConfig config, Vertx vertx, UsageCounters usage, DeliveryListener listener) {
        this.store = store;
        this.usage = usage;
        this.listener = listener;
        this.tenants = tenants;
        this.client = client;
        this.origin = origin;
        this.config = config;
        this.vertx = vertx;
        this.backoff = new BackoffPolicy(config.backoffBase(), config.backoffCap(),
                () -> ThreadLocalRandom.current().nextDouble());
        this.policy = new FailurePolicy(backoff, config.maxAttempts(), config.maxAge(), config.circuitBreaker().delay());
        this.bulkhead = new FifoPermits(config.maxConcurrent());
        this.prefetchFreshNanos = Math.max(0,
                config.leaseTtl().minus(config.requestTimeout()).minusSeconds(1).toNanos() / 2);
    }

    @Override
    public void wake(String tenantId) {
        if (config.enabled() && !stopped) {
            drains.computeIfAbsent(tenantId, TenantDrain::new).wake();
        }
    }

    void start(@Observes StartupEvent event) {
        if (config.enabled()) {
            vertx.setPeriodic(config.sweepInterval().toMillis(), id -> sweep());
            sweep(); // a restart drains every backlog without waiting for new traffic
        }
    }

    /**
     * Graceful shutdown: stops starting new steps, lets each step in flight finish its batch (it releases its own
     * lease: releasing it under it would let another replica re-send a batch this one is about to delete), then
     * releases the leases parked for a backoff, so other replicas take those tenants over at once instead of when
     * the wait would have ended. Bounded by {@code buffer.delivery.request-timeout} plus a second (a step's longest
     * stage is the origin's answer), so the whole shutdown fits the pod's grace period; a lease left behind expires.
     */
    void stop(@Observes ShutdownEvent event) {
        stopped = true;
        if (!config.enabled()) {
            return;
        }
        long deadline = System.nanoTime() + config.requestTimeout().plusSeconds(1).toNanos();
        while (drains.values().stream().anyMatch(d -> d.running.get()) && System.nanoTime() < deadline) {
            java.util.concurrent.locks.LockSupport.parkNanos(10_000_000L); // shutdown thread only, never an event loop
        }
        List<Uni<Void>> releases = new ArrayList<>();
        for (TenantDrain drain : drains.values()) {
            Long parked = drain.parked;
            if (parked != null && !drain.running.get()) {
                drain.parked = null;
                releases.add(store.release(drain.tenantId, parked).onFailure().recoverWithNull());
            }
        }
        if (!releases.isEmpty()) {
            long left = Math.max(1, deadline - System.nanoTime());
            try {
                Uni.join().all(releases).andCollectFailures().ifNoItem().after(java.time.Duration.ofNanos(left))
                        .fail().await().indefinitely();
                LOG.infof("shutdown: released %d parked drain lease(s)", releases.size());
            } catch (RuntimeException e) {
                LOG.warnf("shutdown: drain leases not all released (they expire on their own): %s", e.getMessage());
            }
        }
    }

    /** What the status page shows of a tenant's delivery on this replica; null when this replica never drained it. */
    public DrainView view(String tenantId) {
        TenantDrain d = drains.get(tenantId);
        if (d == null) {
            return null;
        }
        long until = d.notBefore;
        return new DrainView(d.running.get(), until > System.currentTimeMillis() ? until : 0, d.circuitOpen,
                d.lastError, d.lastStatus);
    }

    /** Origins whose breaker is open now (bounded by the number of distinct origins). */
    public java.util.Set<String> openCircuits() {
        return java.util.Set.copyOf(openCircuits.keySet());
    }

    /**
     * Wakes tenants that have queued rows and no live drainer, cycling through all of them: at most as many as keep
     * this replica's running drains within {@code buffer.delivery.sweep-batch}; when that leaves tenants waiting, the
     * next page is read as drains finish (see {@link TenantDrain#finish}), not only at the next interval. Waking a
     * whole page at once would queue one lease query per tenant on the pool, and with 100,000 tenants backlogged that
     * queue grows faster than the leases are served.
     */
    void sweep() {
        if (stopped || !sweeping.compareAndSet(false, true)) {
            return;
        }
        int room = Math.min(SWEEP_PAGE, config.sweepBatch() - activeDrains.get());
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
            ids.forEach(this::wake);
        }, failure -> {
            sweeping.set(false);
            LOG.warnf("drain sweep failed, retrying next interval: %s", failure.getMessage());
        });
    }

    /** Drains running on this replica now. */
    public int activeDrains() {
        return activeDrains.get();
    }

    public long delivered() {
        return delivered.sum();
    }

    public long deadLettered() {
        return deadLettered.sum();
    }

    public long failedBatches() {
        return failedBatches.sum();
    }

    /** What a drain step decided. */
    private record Next(Kind kind, long untilMillis) {
        enum Kind {
            CONTINUE, IDLE, WAIT, LOST
        }

        static final Next CONTINUE = new Next(Kind.CONTINUE, 0);
        static final Next IDLE = new Next(Kind.IDLE, 0);
        static final Next LOST = new Next(Kind.LOST, 0);

        static Next waitUntil(long millis) {
            return new Next(Kind.WAIT, millis);
        }
    }

    /** One tenant's drain: at most one step runs at a time ({@link #running}); {@link #wake()} never blocks. */
    private final class TenantDrain {

        final String tenantId;
        final AtomicBoolean running = new AtomicBoolean();
        volatile boolean again;
        /** No step before this time (epoch ms): the tenant is backing off. */
        volatile long notBefore;
        /** Our lease token while we hold the tenant. */
        volatile Long token;
        /** Batch size now; halved to isolate an event that fails, doubled back on success. */
        volatile int batchLimit = config.batchSize();
        /**
         * A suspect failure is being isolated by halving (see {@link FailurePolicy}): the next failure continues the
         * halving whatever the origin's health says, and these tries do not count in the origin's breaker.
         */
        volatile boolean isolating;
        /** An event was just held aside: the next batch (the events behind it) shows whether the origin works. */
        volatile boolean probing;
        /**
         * The probe behind a held event failed as well: this tenant's events fail, not one of them, so its suspect
         * failures count as the origin's until one of its batches is accepted.
         */
        volatile boolean tenantFailing;
        /** Highest row id this drainer removed; reads start after it (see DrainStore.RENEW_AND_HEAD). */
        volatile long cursor;
        volatile long cursorSince = System.currentTimeMillis();
        /**
         * The next head, read in the same statement that deleted the last batch (and renewed the lease), with the
         * cursor it was read after and when; the next step sends it without a read of its own if it gets its
         * bulkhead slot while the renewal is fresh (see {@link Drainer#prefetchFreshNanos}).
         */
        volatile List<QueuedEvent> prefetched;
        volatile long prefetchedAfter;
        volatile long prefetchedAtNanos;
        /** With a delivery rate: no batch before this time (epoch ms). */
        volatile long paceUntil;
        /** The pending wake-up timer, or -1. */
        // @protectedby: this
        private long timerId = -1;
        /** Counted in activeDrains; changed only by the thread that holds {@link #running}. */
        private boolean inProgress;
        /** Steps that failed in a row (database trouble): their retry backs off like a failing origin. */
        volatile int consecutiveFailures;
        /** The lease token kept through a backoff wait (see finish), released at shutdown. */
        volatile Long parked;
        /** For operators: the last failed attempt's error and status (cleared by a success), breaker state. */
        volatile String lastError;
        volatile int lastStatus;
        volatile boolean circuitOpen;

        TenantDrain(String tenantId) {
            this.tenantId = tenantId;
        }

        void wake() {
            again = true;
            if (stopped || System.currentTimeMillis() < notBefore) {
                return; // shutting down, or the backoff timer wakes us
            }
            if (running.compareAndSet(false, true)) {
                if (!inProgress) {
                    inProgress = true;
                    activeDrains.incrementAndGet();
                }
                again = false;
                parked = null; // the first step's acquire renews our own parked lease
                rewind(); // a new hold: rows left by an earlier holder may sit below our old cursor
                step();
            }
        }

        private void step() {
            // A step that never answers (a half-open database connection) must not hold the tenant forever.
            once().ifNoItem().after(config.leaseTtl()).failWith(() -> new IllegalStateException("drain step timed out"))
                    .subscribe().with(next -> guard(() -> {
                        consecutiveFailures = 0;
                        if (next.kind() == Next.Kind.CONTINUE && !stopped) {
                            step();
                        } else {
                            finish(next);
                        }
                    }), this::failed);
        }

        /** Mutiny drops what an item callback throws; without this a tenant would stay "running" forever. */
        private void guard(Runnable callback) {
            try {
                callback.run();
            } catch (RuntimeException e) {
                failed(e);
            }
        }

        private Uni<Next> once() {
            long ttl = config.leaseTtl().toMillis();
            if (cursor > 0 && System.currentTimeMillis() - cursorSince > CURSOR_REWIND_MILLIS) {
                rewind();
            }
            if (paceUntil > System.currentTimeMillis()) {
                return Uni.createFrom().item(Next.waitUntil(paceUntil));
            }
            long after = cursor;
            // The bulkhead slot is taken before the lease is taken or renewed: a tenant queued for a slot must not
            // see its lease expire and another replica send the same rows meanwhile. Renewal to delete then spans at
            // most one request timeout, which start-up checks keep below the lease TTL. A head read (and the lease
            // renewed) with the last delete is sent only if the slot came within prefetchFreshNanos, which keeps
            // that span below the TTL too.
            return bulkhead.acquire().flatMap(slot -> Uni.createFrom().deferred(
                    () -> head(ttl, after).flatMap(head -> {
                        if (head == null) {
                            return Uni.createFrom().item(Next.LOST);
                        }
                        if (head.isEmpty()) {
                            if (after > 0) {
                                rewind(); // nothing after the cursor: look once more from the start
                                return Uni.createFrom().item(Next.CONTINUE);
                            }
                            return Uni.createFrom().item(Next.IDLE);
                        }
                        long now = System.currentTimeMillis();
                        BatchPlanner.Plan plan = BatchPlanner.select(head, batchLimit, config.maxBatchBytes(), now);
                        if (plan.batch().isEmpty()) {
                            return Uni.createFrom().item(Next.waitUntil(plan.waitUntilMillis()));
                        }
                        QueuedEvent first = plan.batch().get(0);
                        long fullEnough = first.receivedAtMillis() + config.linger().toMillis();
                        if (head.size() < batchLimit && fullEnough > now && first.attempts() == 0) {
                            return Uni.createFrom().item(Next.waitUntil(fullEnough)); // let the batch fill
                        }
                        return Uni.createFrom().completionStage(tenants.find(tenantId))
                                .flatMap(tenant -> deliver(tenant, paced(tenant, plan.batch())));
                    })).eventually(bulkhead::release));
        }

        /**
         * The head to send next, null when the tenant is not (or no longer) ours. A new hold takes the lease and reads
         * the first rows in one statement (null: another replica holds it). Then: the head read with the last delete,
         * when it was read after this cursor and the lease renewal that came with it is still fresh; else a read of its
         * own that renews the lease, and that releases it when a read from the start finds nothing (the tenant goes
         * idle without a round trip of its own to let go).
         */
        private Uni<List<QueuedEvent>> head(long ttl, long after) {
            if (token == null) {
                return store.acquireAndHead(tenantId, holder, ttl, config.batchSize()).map(hold -> {
                    if (hold == null) {
                        return null; // another replica drains this tenant
                    }
                    token = hold.token();
                    return hold.head();
                });
            }
            List<QueuedEvent> ready = prefetched;
            prefetched = null;
            boolean fresh = System.nanoTime() - prefetchedAtNanos < prefetchFreshNanos;
            if (ready != null && prefetchedAfter == after && fresh) {
                return Uni.createFrom().item(ready);
            }
            if (after == 0) {
                return store.renewOrRelease(tenantId, token, ttl, config.batchSize()).invoke(head -> {
                    if (head != null && head.isEmpty()) {
                        token = null; // released with the read
                    }
                });
            }
            return store.renewAndHead(tenantId, token, ttl, config.batchSize(), after);
        }

        private Uni<Next> deliver(Tenant tenant, List<QueuedEvent> batch) {
            String base = tenant != null && tenant.originUrl() != null
                    ? tenant.originUrl()
                    : origin.baseUrl().map(u -> u.replaceAll("/+$", "")).orElse(null);
            if (base == null) {
                LOG.warnf("tenant %s has queued events but no origin (set buffer.origin.base-url or the tenant's "
                        + "originUrl); retrying in %s", tenantId, config.backoffCap());
                return Uni.createFrom().item(Next.waitUntil(System.currentTimeMillis() + config.backoffCap().toMillis()));
            }
            String provider = tenant == null ? "unknown" : tenant.provider();
            // An isolation try (a halving in progress, a held event alone) is judged as the suspect's, not the
            // origin's. The halving also bypasses the breaker: its quick failures in a row would open it on a healthy
            // origin and stall the isolation (bounded: at most log2(batch-size) tries). A held event's tries, spaced
            // by its backoff, go through the breaker, so a dead origin is still probed, not hammered.
            boolean halving = isolating;
            boolean isolationTry = halving || (batch.size() == 1 && batch.get(0).heldAside());
            long started = System.nanoTime();
            Uni<OriginResponse> sent = !halving
                    ? guarded(base, () -> client.send(base, tenantId, provider, batch))
                    : openCircuits.containsKey(originLabel(base))
                            ? Uni.createFrom().item(circuitOpen())
                            : client.send(base, tenantId, provider, batch);
            return sent.invoke(response -> observe(base, response, System.nanoTime() - started))
                    .flatMap(response -> decide(base, batch, response, isolationTry));
        }

        private void observe(String base, OriginResponse response, long nanos) {
            String origin = originLabel(base);
            DeliveryListener.Outcome outcome;
            if (response.status() == CIRCUIT_OPEN) {
                outcome = DeliveryListener.Outcome.CIRCUIT_OPEN;
                nanos = 0;
                openCircuits.put(origin, Boolean.TRUE);
            } else {
                outcome = response.success() ? DeliveryListener.Outcome.SUCCESS
                        : response.retryable() ? DeliveryListener.Outcome.FAILED : DeliveryListener.Outcome.REFUSED;
                if (outcome != DeliveryListener.Outcome.FAILED) {
                    // Only what the breaker counts as a success closes it; a failed trial leaves it open.
                    openCircuits.remove(origin);
                }
            }
            circuitOpen = outcome == DeliveryListener.Outcome.CIRCUIT_OPEN;
            if (outcome == DeliveryListener.Outcome.SUCCESS) {
                lastError = null;
                lastStatus = 0;
            } else if (!circuitOpen) {
                lastError = truncate(response.error());
                lastStatus = response.status();
            }
            listener.attempted(outcome, nanos);
        }

        private Uni<Next> decide(String base, List<QueuedEvent> batch, OriginResponse response,
                boolean isolationTry) {
            long now = System.currentTimeMillis();
            OriginHealth seen = health.computeIfAbsent(base, b -> new OriginHealth());
            FailurePolicy.Verdict verdict = FailurePolicy.classify(response, response.status() == CIRCUIT_OPEN);
            if (verdict == FailurePolicy.Verdict.DELIVERED) {
                seen.succeeded(now);
                isolating = false;
                probing = false;
                tenantFailing = false;
                batchLimit = Math.min(config.batchSize(), batchLimit * 2);
                return accepted(batch, response);
            }
            boolean probe = probing && !isolationTry;
            FailurePolicy.Decision decision = policy.onFailure(batch, response, verdict, new FailurePolicy.Context(
                    seen.lastSuccess(), seen.lastFailure(), isolationTry, probe, tenantFailing, now));
            if (!isolationTry && (verdict == FailurePolicy.Verdict.SUSPECT
                    || verdict == FailurePolicy.Verdict.UNAVAILABLE)) {
                seen.failed(now); // after the decision: it judged the origin by what came before this batch
                tenantFailing = tenantFailing || (probe && verdict == FailurePolicy.Verdict.SUSPECT);
                probing = false;
            }
            if (verdict != FailurePolicy.Verdict.CIRCUIT_OPEN) {
                failedBatches.increment();
            }
            Integer status = response.status() <= 0 ? null : response.status();
            switch (decision.action()) {
                case SPLIT -> {
                    isolating = isolating || verdict == FailurePolicy.Verdict.SUSPECT;
                    batchLimit = decision.limit();
                    LOG.infof("tenant %s: origin %s a batch of %d (%s); retrying in halves to find the event",
                            tenantId, verdict == FailurePolicy.Verdict.REFUSED ? "refused" : "failed", batch.size(),
                            response.error());
                    return Uni.createFrom().item(Next.CONTINUE);
                }
                case HOLD_ASIDE -> {
                    isolating = false;
                    probing = true;
                    batchLimit = config.batchSize();
                    QueuedEvent held = batch.get(0);
                    LOG.infof("tenant %s: event %s failed alone (%s); held aside for %d ms while the events behind it "
                            + "go on (%s)", tenantId, held.eventId(), response.error(), decision.delayMillis(),
                            decision.ownFailure() ? "counted: the origin accepted other batches since its last try"
                                    : "not counted");
                    return store.markFailed(tenantId, token, new Long[] { held.id() }, decision.delayMillis(), status,
                            truncate(response.error()), decision.ownFailure() ? 1 : 0, now)
                            .map(rows -> rows == 0 ? lost() : Next.CONTINUE);
                }
                case DEAD_LETTER -> {
                    isolating = false;
                    return deadLetter(decision.deadLetter(), status, decision.reason()).replaceWith(Next.CONTINUE);
                }
                case RETRY -> {
                    isolating = false;
                    return retryLater(batch, response, decision, status);
                }
                default -> {
                    isolating = false;
                    return Uni.createFrom().item(Next.waitUntil(now + decision.delayMillis()));
                }
            }
        }

        /** The origin could not take the batch: a try counted on each event, the tenant backs off. */
        private Uni<Next> retryLater(List<QueuedEvent> batch, OriginResponse response, FailurePolicy.Decision decision,
                Integer status) {
            long delay = decision.delayMillis();
            Long[] ids = batch.stream().filter(e -> !decision.deadLetter().contains(e)).map(QueuedEvent::id)
                    .toArray(Long[]::new);
            LOG.debugf("tenant %s: batch of %d failed (%s); next try in %d ms", tenantId, batch.size(),
                    response.error(), delay);
            Uni<Integer> marked = ids.length == 0 ? Uni.createFrom().item(1)
                    : store.markFailed(tenantId, token, ids, delay, status, truncate(response.error()), 0, null);
            return marked.flatMap(rows -> {
                if (rows == 0) {
                    return Uni.createFrom().item(lost());
                }
                if (decision.deadLetter().isEmpty()) {
                    return Uni.createFrom().item(Next.waitUntil(System.currentTimeMillis() + delay));
                }
                return deadLetter(decision.deadLetter(), status, decision.reason()).map(n -> ids.length == 0
                        ? Next.CONTINUE
                        : Next.waitUntil(System.currentTimeMillis() + delay));
            });
        }

        /** Our lease was lost under a write (it changed nothing): the new holder goes on from the start. */
        private Next lost() {
            rewind();
            return Next.LOST;
        }

        private Uni<Next> accepted(List<QueuedEvent> batch, OriginResponse response) {
            List<QueuedEvent> rejected = new ArrayList<>();
            List<Long> done = new ArrayList<>(batch.size());
            for (QueuedEvent e : batch) {
                if (response.rejected().containsKey(e.eventId())) {
                    rejected.add(e);
                } else {
                    done.add(e.id());
                }
            }
            Uni<Integer> deadLettering = rejected.isEmpty()
                    ? Uni.createFrom().item(0)
                    : deadLetter(rejected, response.status(), null, response.rejected());
            long after = Math.max(cursor, batch.get(batch.size() - 1).id());
            return deadLettering
                    .flatMap(n -> store.deleteAndNext(tenantId, token, done.toArray(Long[]::new),
                            config.leaseTtl().toMillis(), config.batchSize(), after))
                    .map(result -> {
                        if (result.next() == null) {
                            rewind();
                            return Next.LOST; // nothing deleted: the new holder delivers the batch again
                        }
                        int deleted = result.deleted();
                        delivered.add(deleted);
                        usage.add(tenantId, UsageMetric.DELIVERED, deleted);
                        if (deleted == done.size()) {
                            cursor = after;
                            prefetched = result.next();
                            prefetchedAfter = after;
                            prefetchedAtNanos = System.nanoTime();
                        } else {
                            rewind(); // rows gone under us (not by this drainer): read from the start again
                        }
                        return Next.CONTINUE;
                    });
        }

        private Uni<Integer> deadLetter(List<QueuedEvent> events, Integer status, String reason) {
            return deadLetter(events, status, reason, Map.of());
        }

        private Uni<Integer> deadLetter(List<QueuedEvent> events, Integer status, String reason,
                Map<String, String> perEvent) {
            Long[] ids = new Long[events.size()];
            Integer[] statuses = new Integer[events.size()];
            String[] errors = new String[events.size()];
            for (int i = 0; i < ids.length; i++) {
                ids[i] = events.get(i).id();
                statuses[i] = status;
                String own = perEvent.get(events.get(i).eventId());
                errors[i] = truncate(own != null ? "rejected by origin: " + own : reason);
            }
            return store.deadLetter(tenantId, token, ids, statuses, errors).invoke(n -> {
                deadLettered.add(n);
                usage.add(tenantId, UsageMetric.DEAD_LETTERED, n);
                LOG.infof("tenant %s: %d event(s) moved to dead_letters (%s)", tenantId, n, errors[0]);
            });
        }

        /**
         * With a delivery rate r, a batch carries at most r events (one second's worth) and the next batch waits
         * until the events just sent have used up their share of time: n events, then n / r seconds.
         */
        private List<QueuedEvent> paced(Tenant tenant, List<QueuedEvent> batch) {
            Integer rate = tenant == null ? null : tenant.deliveryRate();
            if (rate == null) {
                return batch;
            }
            List<QueuedEvent> limited = batch.size() > rate ? batch.subList(0, rate) : batch;
            paceUntil = System.currentTimeMillis() + limited.size() * 1000L / rate;
            return limited;
        }

        private void rewind() {
            cursor = 0;
            cursorSince = System.currentTimeMillis();
        }

        private void finish(Next next) {
            Long held = token;
            token = null;
            prefetched = null; // an idle drain keeps no rows in memory; the next hold reads its own head
            if (held != null && next.kind() == Next.Kind.WAIT && !stopped) {
                // Keep the tenant until the wait ends: other replicas' sweeps skip it meanwhile, our timer takes it
                // back (same holder), and if we die it is free when the wait would have ended anyway.
                parked = held;
                store.park(tenantId, held, next.untilMillis()).subscribe().with(v -> {
                }, f -> LOG.debugf("lease park for %s failed (it expires on its own): %s", tenantId, f.getMessage()));
            } else if (held != null && next.kind() != Next.Kind.LOST) {
                store.release(tenantId, held).subscribe().with(v -> {
                }, f -> LOG.debugf("lease release for %s failed (it expires on its own): %s", tenantId, f.getMessage()));
            }
            if (next.kind() == Next.Kind.WAIT) {
                notBefore = next.untilMillis();
                wakeAt(next.untilMillis());
            }
            boolean done = next.kind() != Next.Kind.WAIT
                    || next.untilMillis() - System.currentTimeMillis() > SHORT_WAIT_MILLIS;
            boolean leaving = done && inProgress;
            if (leaving) {
                inProgress = false;
            }
            running.set(false);
            if (leaving && activeDrains.decrementAndGet() <= config.sweepBatch() / 2 && sweepMore) {
                sweep(); // refill: the sweep left tenants waiting for room
            }
            if (again && next.kind() == Next.Kind.IDLE) {
                wake();
            } else if (again && next.kind() == Next.Kind.LOST && !stopped) {
                // Another replica held the tenant; it may have been releasing it just now. Look again shortly
                // rather than leaving a fresh event to the next sweep.
                wakeAt(System.currentTimeMillis() + LOST_RETRY_MILLIS);
            }
        }

        /** One pending timer per tenant: a newer wait replaces an older one, so a stale timer cannot cut it short. */
        private synchronized void wakeAt(long untilMillis) {
            if (timerId >= 0) {
                vertx.cancelTimer(timerId);
            }
            long id = vertx.setTimer(Math.max(1, untilMillis - System.currentTimeMillis()), fired -> {
                synchronized (this) {
                    if (timerId != fired) {
                        return;
                    }
                    timerId = -1;
                }
                notBefore = 0;
                wake();
            });
            timerId = id;
        }

        private void failed(Throwable failure) {
            long delay = backoff.delayMillis(++consecutiveFailures, 0);
            LOG.warnf("tenant %s: drain step failed (%s); retrying in %d ms", tenantId, failure.getMessage(), delay);
            finish(Next.waitUntil(System.currentTimeMillis() + delay));
        }
    }

    /** The origin's circuit breaker around one send; an open breaker yields {@link #CIRCUIT_OPEN}, never a send. */
    private Uni<OriginResponse> guarded(String base, java.util.function.Supplier<Uni<OriginResponse>> send) {
        Guard guard = breakers.computeIfAbsent(base, b -> Guard.create()
                .withCircuitBreaker()
                .requestVolumeThreshold(config.circuitBreaker().requestVolume())
                .failureRatio(config.circuitBreaker().failureRatio())
                .delay(config.circuitBreaker().delay().toMillis(), ChronoUnit.MILLIS)
                .done()
                .build());
        return guard.get(() -> Uni.createFrom().deferred(send::get).flatMap(r -> r.retryable()
                ? Uni.createFrom().failure(new RetryableAnswer(r))
                : Uni.createFrom().item(r)), RESPONSE_UNI)
                .onFailure(RetryableAnswer.class).recoverWithItem(f -> ((RetryableAnswer) f).response)
                .onFailure(CircuitBreakerOpenException.class)
                .recoverWithItem(f -> circuitOpen())
                // Anything else (a batch that could not be built or sent) counts as a failed delivery attempt.
                .onFailure().recoverWithItem(f -> OriginResponse.noAnswer(f.toString()));
    }

    private static OriginResponse circuitOpen() {
        return new OriginResponse(CIRCUIT_OPEN, 0, Map.of(), "circuit breaker open");
    }

    /** An origin as a metric label and on the status page: scheme://host:port, never a path or credentials. */
    static String originLabel(String base) {
        try {
            java.net.URI uri = java.net.URI.create(base);
            int port = uri.getPort() >= 0 ? uri.getPort() : "https".equalsIgnoreCase(uri.getScheme()) ? 443 : 80;
            return uri.getScheme() + "://" + uri.getHost() + ":" + port;
        } catch (RuntimeException e) {
            return "invalid";
        }
    }

    /** Origin-supplied text as PostgreSQL can store it: no NUL characters, at most 1,000 characters. */
    static String truncate(String s) {
        if (s == null) {
            return null;
        }
        String clean = s.indexOf('\u0000') >= 0 ? s.replace("\u0000", "") : s;
        return clean.length() <= 1000 ? clean : clean.substring(0, 1000) + "...";
    }

    /** A retryable origin answer, thrown through the breaker so it counts as a failure there. */
    private static final class RetryableAnswer extends RuntimeException {
        final transient OriginResponse response;

        RetryableAnswer(OriginResponse response) {
            super(response.error(), null, false, false);
            this.response = response;
        }
    }
}
