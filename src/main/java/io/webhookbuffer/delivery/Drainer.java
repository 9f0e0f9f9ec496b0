package io.webhookbuffer.delivery;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.util.TypeLiteral;

import org.jboss.logging.Logger;

import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.faulttolerance.api.Guard;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import io.webhookbuffer.common.OriginConfig;
import io.webhookbuffer.queue.DrainScheduler;
import io.webhookbuffer.queue.DrainStore;
import io.webhookbuffer.queue.QueuedEvent;
import io.webhookbuffer.tenant.Tenant;
import io.webhookbuffer.tenant.TenantDirectory;

/**
 * Drains each tenant's queue to its origin: one drainer per tenant across the cluster (a fenced lease in
 * PostgreSQL), oldest rows first, one batch in flight per tenant. Runs only while there is work: the tenant's actor
 * wakes it when an event is stored, a timer when a backoff ends, and a periodic sweep finds tenants with pending
 * rows that nobody holds (after a restart, or when a replica died holding a lease).
 *
 * <p>Outcomes: 2xx deletes exactly the delivered row ids (and dead-letters the ones the origin listed in
 * {@code rejected}); no answer, 408, 429 or 5xx counts an attempt on each row and backs the tenant off; any other 4xx
 * halves the batch until the refused event is alone, then dead-letters it. Past {@code max-attempts} or
 * {@code max-age} a failing event is dead-lettered. Delivery is at-least-once: a crash between the origin's 2xx and
 * the delete re-delivers the batch.
 */
@ApplicationScoped
public class Drainer implements DrainScheduler {

    private static final Logger LOG = Logger.getLogger(Drainer.class);
    private static final TypeLiteral<Uni<OriginResponse>> RESPONSE_UNI = new TypeLiteral<>() {
    };
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
    private final FairBulkhead bulkhead;
    private final Map<String, TenantDrain> drains = new ConcurrentHashMap<>();
    private final Map<String, Guard> breakers = new ConcurrentHashMap<>();
    private final LongAdder delivered = new LongAdder();
    private final LongAdder deadLettered = new LongAdder();
    private final LongAdder failedBatches = new LongAdder();
    private volatile boolean stopped;

    public Drainer(DrainStore store, TenantDirectory tenants, OriginClient client, OriginConfig origin,
            DeliveryConfig config, Vertx vertx) {
        this.store = store;
        this.tenants = tenants;
        this.client = client;
        this.origin = origin;
        this.config = config;
        this.vertx = vertx;
        this.backoff = new BackoffPolicy(config.backoffBase(), config.backoffCap(),
                () -> ThreadLocalRandom.current().nextDouble());
        this.bulkhead = new FairBulkhead(config.maxConcurrent());
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

    void stop(@Observes ShutdownEvent event) {
        stopped = true;
        // Hand the tenants over now rather than when the leases expire.
        for (TenantDrain drain : drains.values()) {
            Long token = drain.token;
            if (token != null) {
                store.release(drain.tenantId, token).onFailure().recoverWithNull().await().atMost(Duration.ofSeconds(2));
            }
        }
    }

    /** Wakes every tenant that has queued rows and no live drainer. */
    void sweep() {
        if (stopped) {
            return;
        }
        store.undrainedTenants(10_000).subscribe().with(ids -> ids.forEach(this::wake),
                failure -> LOG.warnf("drain sweep failed, retrying next interval: %s", failure.getMessage()));
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
        /** Batch size now; halved to isolate an event the origin refuses, doubled back on success. */
        volatile int batchLimit = config.batchSize();
        /** Highest row id this drainer removed; reads start after it (see DrainStore.RENEW_AND_HEAD). */
        volatile long cursor;
        volatile long cursorSince = System.currentTimeMillis();
        /** With a delivery rate: no batch before this time (epoch ms). */
        volatile long paceUntil;

        TenantDrain(String tenantId) {
            this.tenantId = tenantId;
        }

        void wake() {
            again = true;
            if (System.currentTimeMillis() < notBefore) {
                return; // the backoff timer wakes us
            }
            if (running.compareAndSet(false, true)) {
                again = false;
                store.acquire(tenantId, holder, config.leaseTtl().toMillis()).subscribe().with(t -> {
                    if (t == null) {
                        finish(Next.LOST); // another replica drains this tenant
                    } else {
                        token = t;
                        step();
                    }
                }, this::failed);
            }
        }

        private void step() {
            once().subscribe().with(next -> {
                if (next.kind() == Next.Kind.CONTINUE && !stopped) {
                    step();
                } else {
                    finish(next);
                }
            }, this::failed);
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
            return store.renewAndHead(tenantId, token, ttl, batchLimit, after).flatMap(head -> {
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
                        long due = head.get(0).nextAttemptAt().toInstant().toEpochMilli();
                        if (due > now) {
                            return Uni.createFrom().item(Next.waitUntil(due));
                        }
                        long fullEnough = head.get(0).receivedAt().toInstant().toEpochMilli() + config.linger().toMillis();
                        if (head.size() < batchLimit && fullEnough > now && head.get(0).attempts() == 0) {
                            return Uni.createFrom().item(Next.waitUntil(fullEnough)); // let the batch fill
                        }
                        return Uni.createFrom().completionStage(tenants.find(tenantId))
                                .flatMap(tenant -> deliver(tenant, paced(tenant, cutToBytes(head))));
                    });
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
            return bulkhead.acquire()
                    .flatMap(slot -> guarded(base, () -> client.send(base, tenantId, provider, batch))
                            .eventually(bulkhead::release))
                    .flatMap(response -> decide(batch, response));
        }

        private Uni<Next> decide(List<QueuedEvent> batch, OriginResponse response) {
            long now = System.currentTimeMillis();
            if (response.status() == CIRCUIT_OPEN) {
                return Uni.createFrom().item(Next.waitUntil(now + config.circuitBreaker().delay().toMillis()));
            }
            if (response.success()) {
                batchLimit = Math.min(config.batchSize(), batchLimit * 2);
                return accepted(batch, response);
            }
            failedBatches.increment();
            if (response.retryable()) {
                return retryLater(batch, response);
            }
            if (batch.size() > 1) {
                batchLimit = Math.max(1, batch.size() / 2);
                LOG.infof("tenant %s: origin refused a batch of %d (%s); retrying in halves to find the event",
                        tenantId, batch.size(), response.error());
                return Uni.createFrom().item(Next.CONTINUE);
            }
            return deadLetter(List.of(batch.get(0)), response.status(), "refused by origin: " + response.error())
                    .replaceWith(Next.CONTINUE);
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
            return deadLettering
                    .flatMap(n -> store.deleteDelivered(tenantId, token, done.toArray(Long[]::new)))
                    .map(deleted -> {
                        delivered.add(deleted);
                        advance(batch);
                        return Next.CONTINUE;
                    });
        }

        private Uni<Next> retryLater(List<QueuedEvent> batch, OriginResponse response) {
            int attempt = batch.get(0).attempts() + 1;
            long delay = backoff.delayMillis(attempt, response.retryAfterMillis());
            Long[] ids = batch.stream().map(QueuedEvent::id).toArray(Long[]::new);
            Integer status = response.status() == 0 ? null : response.status();
            LOG.debugf("tenant %s: batch of %d failed (%s); attempt %d, next in %d ms", tenantId, batch.size(),
                    response.error(), attempt, delay);
            OffsetDateTime tooOld = OffsetDateTime.now(ZoneOffset.UTC).minus(config.maxAge());
            return store.markFailed(tenantId, token, ids, delay, status, truncate(response.error()))
                    .flatMap(rows -> {
                        List<QueuedEvent> exhausted = new ArrayList<>();
                        for (var row : rows) {
                            if (row.attempts() >= config.maxAttempts() || row.receivedAt().isBefore(tooOld)) {
                                batch.stream().filter(e -> e.id() == row.id()).findFirst()
                                        .ifPresent(e -> exhausted.add(e));
                            }
                        }
                        if (exhausted.isEmpty()) {
                            return Uni.createFrom().item(Next.waitUntil(System.currentTimeMillis() + delay));
                        }
                        String reason = "gave up after " + config.maxAttempts() + " attempts or "
                                + config.maxAge() + ": " + response.error();
                        return deadLetter(exhausted, status, reason).map(n -> exhausted.size() == batch.size()
                                ? Next.CONTINUE
                                : Next.waitUntil(System.currentTimeMillis() + delay));
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

        /** Every row of the batch has left the queue: later reads start after it. */
        private void advance(List<QueuedEvent> batch) {
            cursor = Math.max(cursor, batch.get(batch.size() - 1).id());
        }

        private void rewind() {
            cursor = 0;
            cursorSince = System.currentTimeMillis();
        }

        private void finish(Next next) {
            Long held = token;
            if (next.kind() == Next.Kind.LOST) {
                token = null;
            } else if (held != null) {
                token = null;
                store.release(tenantId, held).subscribe().with(v -> {
                }, f -> LOG.debugf("lease release for %s failed (it expires on its own): %s", tenantId, f.getMessage()));
            }
            if (next.kind() == Next.Kind.WAIT) {
                notBefore = next.untilMillis();
                vertx.setTimer(Math.max(1, next.untilMillis() - System.currentTimeMillis()), id -> {
                    notBefore = 0;
                    wake();
                });
            }
            running.set(false);
            if (again && next.kind() == Next.Kind.IDLE) {
                wake();
            }
        }

        private void failed(Throwable failure) {
            LOG.warnf("tenant %s: drain step failed (%s); retrying in %s", tenantId, failure.getMessage(),
                    config.backoffBase());
            finish(Next.waitUntil(System.currentTimeMillis() + config.backoffBase().toMillis()));
        }

        private List<QueuedEvent> cutToBytes(List<QueuedEvent> head) {
            List<QueuedEvent> batch = new ArrayList<>(head.size());
            long bytes = 0;
            for (QueuedEvent e : head) {
                bytes += e.body().length;
                if (!batch.isEmpty() && bytes > config.maxBatchBytes()) {
                    break;
                }
                batch.add(e);
            }
            return batch;
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
        return guard.get(() -> send.get().flatMap(r -> r.retryable()
                ? Uni.createFrom().failure(new RetryableAnswer(r))
                : Uni.createFrom().item(r)), RESPONSE_UNI)
                .onFailure(RetryableAnswer.class).recoverWithItem(f -> ((RetryableAnswer) f).response)
                .onFailure().recoverWithItem(f -> new OriginResponse(CIRCUIT_OPEN, 0, Map.of(), f.toString()));
    }

    private static String truncate(String s) {
        return s == null || s.length() <= 1000 ? s : s.substring(0, 1000) + "...";
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
