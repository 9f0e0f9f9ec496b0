package io.webhookbuffer.delivery;

import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import org.jboss.logging.Logger;

import io.smallrye.mutiny.Uni;
import io.webhookbuffer.common.BufferClock;
import io.webhookbuffer.common.OriginCredentials;
import io.webhookbuffer.queue.QueuedEvent;
import io.webhookbuffer.tenant.Tenant;

/**
 * One tenant's drain on this replica: at most one step runs at a time ({@link #running}; {@link #wake()} never
 * blocks). A step takes its bulkhead slot (while the tenant's origin is slow, a slow-lane slot: {@link SlowLane}),
 * reads the head under the tenant's lease ({@link TenantLease}), plans a batch ({@link BatchPlanner}), sends it
 * through the origin's breaker ({@link OriginBreakers}) and hands the answer to {@link OutcomeWriter}; then the next
 * step, or a wait on a timer, or idle.
 */
final class TenantDrain {

    private static final Logger LOG = Logger.getLogger(Drainer.class);
    /** A wait up to this long (a batch filling, pacing) keeps a drain in progress; a longer one (backoff) frees it. */
    private static final long SHORT_WAIT_MILLIS = 1_000;
    /** After another replica's lease turned us away while work was pending, look again this soon. */
    private static final long LOST_RETRY_MILLIS = 500;

    private final String tenantId;
    private final LeaseTerms terms;
    private final DrainSlots slots;
    private final OriginRoute route;
    private final OutcomeWriter outcomes;
    private final BackoffPolicy backoff;
    private final DrainSweep sweep;
    private final BufferClock clock;
    private final DeliveryConfig config;
    private final BatchHalving isolation;
    private final TenantLease lease;
    private final AtomicBoolean running = new AtomicBoolean();
    private volatile boolean again;
    /** No step before this time (epoch ms): the tenant is backing off. */
    private volatile long notBefore;
    /** With a delivery rate: no batch before this time (epoch ms). */
    private volatile long paceUntil;
    /** The pending wake-up timer, or -1. */
    // @protectedby: this
    private long timerId = -1;
    /** Counted in the sweep's active drains; changed only by the thread that holds {@link #running}. */
    private boolean inProgress;
    /** Steps that failed in a row (database trouble): their retry backs off like a failing origin. */
    private volatile int consecutiveFailures;
    /** For operators: the last failed attempt's error and status (cleared by a success), breaker state. */
    private volatile String lastError;
    private volatile int lastStatus;
    private volatile boolean circuitOpen;
    private volatile boolean warnedNoCredentials;
    /** The last batch sent was unanswered at the slow threshold: steps queue for the slow lane ({@link SlowLane}). */
    private volatile boolean slow;
    /** Why the tenant's batches are held (its stored originUrl is not allowed), or null; and the URL last warned of. */
    private volatile String held;
    private volatile String heldWarned;
    /** When the last step ended (delivery clock, ms): a drain idle long enough is dropped ({@link #retire}). */
    private volatile long lastActive;
    /** Dropped from the drainer's map: it never runs again, and a wake goes to a fresh drain. */
    private volatile boolean retired;

    /** Wakes the tenant through the drainer's map: used when this drain was retired under a wake of its own. */
    private final Runnable handOff;

    TenantDrain(String tenantId, LeaseTerms terms, DrainSlots slots, OriginRoute route, OutcomeWriter outcomes,
            BackoffPolicy backoff, DrainSweep sweep, Runnable handOff) {
        this.tenantId = tenantId;
        this.handOff = handOff;
        this.terms = terms;
        this.slots = slots;
        this.route = route;
        this.outcomes = outcomes;
        this.backoff = backoff;
        this.sweep = sweep;
        this.clock = terms.clock();
        this.config = terms.config();
        this.isolation = new BatchHalving(config.batchSize());
        this.lease = new TenantLease(tenantId, terms);
        this.lastActive = now();
    }

    /** False when this drain was retired: the caller wakes a fresh one instead. */
    boolean wake() {
        again = true;
        if (terms.stopped()) {
            return true;
        }
        if (now() < notBefore) {
            return !retired; // the backoff timer wakes us
        }
        if (!running.compareAndSet(false, true)) {
            return !retired; // the running step sees again; a retired drain (running for good) sees nothing
        }
        if (!inProgress) {
            inProgress = true;
            sweep.started();
        }
        again = false;
        lease.newHold();
        step();
        return true;
    }

    /** A wake of our own (a timer, a step's end): a fresh drain takes it if this one was retired meanwhile. */
    private void wakeHere() {
        if (!wake()) {
            handOff.run();
        }
    }

    /**
     * Drops this drain if it has been idle since {@code idleSince} (not running, no timer, no parked lease, not counted
     * in progress): it takes {@link #running} for good, so no step starts after, and the caller removes it from the map.
     * A wake that came meanwhile (seen in {@link #again}) is handed off to a fresh drain.
     */
    boolean retire(long idleSince) {
        if (lastActive > idleSince || inProgress || !running.compareAndSet(false, true)) {
            return false;
        }
        boolean idle;
        synchronized (this) {
            idle = timerId < 0 && !inProgress && lease.parkedToken() == null && lastActive <= idleSince;
        }
        if (!idle) {
            running.set(false);
            if (again) {
                wakeHere();
            }
            return false;
        }
        retired = true;
        if (again) {
            handOff.run(); // a wake saw us running before we were retired: a fresh drain takes it
        }
        return true;
    }

    private void step() {
        // A step that never answers (a half-open database connection) must not hold the tenant forever.
        once().ifNoItem().after(config.leaseTtl()).failWith(() -> new IllegalStateException("drain step timed out"))
                .subscribe().with(next -> guard(() -> {
                    consecutiveFailures = 0;
                    if (next.kind() == NextStep.Kind.CONTINUE && !terms.stopped()) {
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

    private Uni<NextStep> once() {
        long after = lease.readFrom();
        if (paceUntil > now()) {
            return Uni.createFrom().item(NextStep.waitUntil(paceUntil));
        }
        // The bulkhead slot is taken before the lease is taken or renewed: a tenant queued for a slot must not see
        // its lease expire and another replica send the same rows meanwhile. Renewal to delete then spans at most
        // one request timeout, which start-up checks keep below the lease TTL. A head read (and the lease renewed)
        // with the last delete is sent only if the slot came within prefetchFreshNanos, which keeps that span below
        // the TTL too. A slow tenant waits for a slow-lane slot in the same place; a move between lanes never waits.
        if (slow) {
            return slots.slowLane().withPermit(() -> lease.head(after)
                    .flatMap(head -> planned(head, after, SlowLane.onSlowLane())));
        }
        return slots.bulkhead().withReleasablePermit(giveBack -> {
            SlowLane lane = SlowLane.onMain(giveBack, slots.slowLane());
            return lease.head(after).flatMap(head -> planned(head, after, lane)).onTermination().invoke(lane::ended);
        });
    }

    /** What the head means: the lease lost, idle, a look from the start, a wait, or a batch to send. */
    private Uni<NextStep> planned(List<QueuedEvent> head, long after, SlowLane lane) {
        if (head == null) {
            return Uni.createFrom().item(NextStep.LOST);
        }
        if (head.isEmpty()) {
            if (after > 0) {
                lease.rewind(); // nothing after the cursor: look once more from the start
                return Uni.createFrom().item(NextStep.CONTINUE);
            }
            return Uni.createFrom().item(NextStep.IDLE);
        }
        BatchPlanner.Plan plan = BatchPlanner.plan(head, isolation.limit(), config.maxBatchBytes(),
                config.linger().toMillis(), now());
        if (plan.batch().isEmpty()) {
            return Uni.createFrom().item(NextStep.waitUntil(plan.waitUntilMillis()));
        }
        return Uni.createFrom().completionStage(route.tenants().find(tenantId))
                .flatMap(tenant -> deliver(tenant, paced(tenant, plan.batch()), lane));
    }

    private List<QueuedEvent> paced(Tenant tenant, List<QueuedEvent> batch) {
        // The slower of deliveryRate and, for a tenant whose events over its limit are stored, the limit itself.
        Tenant.Pace pace = tenant == null ? null : tenant.deliveryPace();
        if (pace == null) {
            return batch;
        }
        BatchPlanner.Paced paced = BatchPlanner.pace(batch, pace.events(), pace.perSeconds(), now());
        paceUntil = paced.paceUntilMillis();
        return paced.batch();
    }

    private Uni<NextStep> deliver(Tenant tenant, List<QueuedEvent> batch, SlowLane lane) {
        String globalBase = route.origin().baseUrl().map(u -> u.replaceAll("/+$", "")).orElse(null);
        String base = tenant != null && tenant.originUrl() != null ? tenant.originUrl() : globalBase;
        if (base == null) {
            LOG.warnf("tenant %s has queued events but no origin (set buffer.origin.base-url or the tenant's "
                    + "originUrl); retrying in %s", tenantId, config.backoffCap());
            return notSent();
        }
        if (tenant != null && tenant.originUrl() != null) {
            String refusal = route.trust().originUrlRefusal(tenant.originUrl());
            if (refusal != null) {
                return hold(tenant.originUrl(), refusal);
            }
        }
        held = null;
        heldWarned = null;
        String provider = tenant == null ? "unknown" : tenant.provider();
        // An isolation try (a halving in progress, a held event alone) is judged as the suspect's, not the origin's.
        // The halving also bypasses the breaker: its quick failures in a row would open it on a healthy origin and
        // stall the isolation (bounded: at most log2(batch-size) tries). A held event's tries, spaced by its backoff,
        // go through the breaker, so a dead origin is still probed, not hammered.
        boolean isolationTry = isolation.isolationTry(batch);
        OriginCredentials credentials = OriginCredentialChoice.forBatch(tenant, globalBase,
                route.breakers().globalCredentials());
        warnOnce(tenant, globalBase, credentials);
        Uni<OriginResponse> exchange = route.breakers().send(base, credentials, tenantId, provider, batch,
                isolation.halving());
        return lane.watch(exchange, clock, slots.slowAfterMillis())
                .invoke(response -> slow = lane.crossed())
                .invoke(this::observe)
                .flatMap(response -> {
                    response.trace().logContext(); // the batch span's ids on the lines about its answer
                    try {
                        return outcomes.decide(lease, isolation, base, batch, response, isolationTry);
                    } finally {
                        response.trace().clearLogContext();
                    }
                });
    }

    /** Once per drain: a tenant origin that gets no credentials is likely waiting for them (docs/delivery.md). */
    private void warnOnce(Tenant tenant, String globalBase, OriginCredentials credentials) {
        if (credentials.isEmpty() && !warnedNoCredentials && tenant != null && tenant.originUrl() != null
                && !tenant.originUrl().equals(globalBase)) {
            warnedNoCredentials = true;
            LOG.warnf("tenant %s: batches to its own origin carry no token and no signature (the global ones go to the "
                    + "global origin only); set its originToken and originSigningSecret", tenantId);
        }
    }

    /**
     * The tenant's stored originUrl is one a command would refuse now (buffer.origin.allowed-hosts changed, or it was
     * stored before there was one): nothing is sent and nothing is counted or dead-lettered (an outage of trust must
     * never lose events); the tenant looks again after the backoff cap. Warned once per tenant and URL.
     */
    private Uni<NextStep> hold(String originUrl, String refusal) {
        held = refusal;
        if (!originUrl.equals(heldWarned)) {
            heldWarned = originUrl;
            LOG.warnf("tenant %s: batches held, not sent: its originUrl (%s) is not allowed now: %s Nothing is dropped;"
                    + " allow it (buffer.origin.allowed-hosts, buffer.origin.allowed-private-networks) or set another"
                    + " originUrl, and delivery resumes within %s", tenantId, OriginBreakers.originLabel(originUrl),
                    refusal, config.backoffCap());
        }
        return notSent();
    }

    /**
     * Nothing is sent: the tenant is stamped held now (the time its events wait here does not count against
     * buffer.delivery.max-age) and looks again after the backoff cap. A stamp that fails is left to the next look.
     */
    private Uni<NextStep> notSent() {
        return terms.store().held(tenantId).onFailure().recoverWithNull()
                .map(ignored -> NextStep.waitUntil(now() + config.backoffCap().toMillis()));
    }

    private void observe(OriginResponse response) {
        circuitOpen = response.status() == OriginBreakers.CIRCUIT_OPEN;
        if (response.success()) {
            lastError = null;
            lastStatus = 0;
        } else if (!circuitOpen) {
            lastError = OriginResponse.truncate(response.error());
            lastStatus = response.status();
        }
    }

    private void finish(NextStep next) {
        lastActive = now();
        lease.letGo(next);
        if (next.kind() == NextStep.Kind.WAIT) {
            notBefore = next.untilMillis();
            wakeAt(next.untilMillis());
        }
        boolean done = next.kind() != NextStep.Kind.WAIT || next.untilMillis() - now() > SHORT_WAIT_MILLIS;
        boolean leaving = done && inProgress;
        if (leaving) {
            inProgress = false;
        }
        running.set(false);
        if (leaving) {
            sweep.finished();
        }
        if (again) {
            lookAgain(next);
        }
    }

    /** An event arrived while the step ran: look again now, or shortly when another replica held the tenant. */
    private void lookAgain(NextStep next) {
        if (next.kind() == NextStep.Kind.IDLE) {
            wakeHere();
        } else if (next.kind() == NextStep.Kind.LOST && !terms.stopped()) {
            // Another replica held the tenant; it may have been releasing it just now. Look again shortly rather
            // than leaving a fresh event to the next sweep.
            wakeAt(now() + LOST_RETRY_MILLIS);
        }
    }

    /** One pending timer per tenant: a newer wait replaces an older one, so a stale timer cannot cut it short. */
    private synchronized void wakeAt(long untilMillis) {
        if (timerId >= 0) {
            clock.cancelTimer(timerId);
        }
        timerId = clock.setTimer(Math.max(1, untilMillis - now()), fired -> {
            synchronized (this) {
                if (timerId != fired) {
                    return;
                }
                timerId = -1;
            }
            notBefore = 0;
            wakeHere();
        });
    }

    private void failed(Throwable failure) {
        long delay = backoff.delayMillis(++consecutiveFailures, 0);
        LOG.warnf("tenant %s: drain step failed (%s); retrying in %d ms", tenantId, failure.getMessage(), delay);
        finish(NextStep.waitUntil(now() + delay));
    }

    private long now() {
        return clock.millis();
    }

    boolean running() {
        return running.get() && !retired;
    }

    /** The lease parked for a wait, taken for release at shutdown; null when none, or a step is running. */
    Long unpark() {
        return running.get() ? null : lease.unpark();
    }

    String tenantId() {
        return tenantId;
    }

    DrainView view(long nowMillis) {
        long until = notBefore;
        return new DrainView(running.get(), until > nowMillis ? until : 0, circuitOpen, lastError, lastStatus, held);
    }
}
