package io.webhookbuffer.warmup;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntConsumer;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.ObservesAsync;

import org.jboss.logging.Logger;

import io.quarkus.runtime.ShutdownDelayInitiatedEvent;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.vertx.http.HttpServerStart;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.webhookbuffer.actor.TenantActors;
import io.webhookbuffer.common.Hmac;
import io.webhookbuffer.ingress.EdgePort;
import io.webhookbuffer.tenant.RehearsalTenant;
import io.webhookbuffer.usage.UsageCounters;

/**
 * Rehearses the ingest path before readiness. A fresh JVM runs the hot path interpreted and spends its first seconds
 * compiling it: measured here, a new replica answered 2-3k events/s at p99 130-250 ms in its first 15 s against
 * 10-11k/s at p99 20-25 ms a minute later, exactly when a rolling deploy or an autoscaler gives it traffic. So once
 * the HTTP server listens, the replica sends itself signed webhooks over loopback (the generic scheme, ~1 KB bodies,
 * one in twenty a duplicate), {@code buffer.warmup.requests} of them or for {@code buffer.warmup.max-duration},
 * whichever ends first, from {@code buffer.warmup.connections} connections, to the {@link RehearsalTenant}: through
 * the router, the gate, the ingest route, the MAC, the actor, and the real group-commit statement, rolled back
 * ({@code queue.RehearsalWriter}); then it rehearses the refusals ({@link RefusalRehearsal}: unknown tenants, bad
 * signatures, oversized bodies, broken HTTP, {@code buffer.warmup.refusals} of them); then it waits, within
 * {@code buffer.warmup.settle-max}, for the JIT compiler to work off what the rehearsals queued. Readiness
 * ({@code health.WarmupReadiness}) turns UP when it ends, whatever its answers were: a database that fails the
 * rehearsal fails the database check too, which says so.
 *
 * <p>What it leaves: nothing in PostgreSQL but the dead tuples of the rolled-back inserts (vacuum's), no usage, no
 * ingest metrics, no actor (forgotten at the end); the log's start and end lines. What it costs: the time to
 * readiness (a few seconds, bounded by the max duration) and CPU before any traffic is taken.
 */
@ApplicationScoped
public class Warmup {

    private static final Logger LOG = Logger.getLogger(Warmup.class);
    /** Without a plain HTTP server (HTTPS only, say) nothing is rehearsed: readiness goes on after this. */
    private static final long NO_SERVER_MILLIS = 10_000;
    private static final int DUPLICATE_EVERY = 20;
    private static final int FILLER = 960;
    private static final long SETTLE_POLL_MILLIS = 250;
    private static final long SETTLED_MILLIS = 25;

    private final Vertx vertx;
    private final WarmupConfig config;
    private final RehearsalTenant rehearsal;
    private final UsageCounters usage;
    private final TenantActors actors;
    /** The listening server, for its port when the configured one is 0 (random: tests). */
    private final EdgePort edge;
    private final RefusalRehearsal refusals;
    private volatile RefusalRehearsal.Tally refused;
    private final AtomicBoolean started = new AtomicBoolean();
    private final AtomicLong issued = new AtomicLong();
    private final LongAdder accepted = new LongAdder();
    private final LongAdder deduplicated = new LongAdder();
    private final LongAdder other = new LongAdder();
    private final String filler = "x".repeat(FILLER);
    private volatile boolean done;
    private boolean quietBefore;
    private volatile boolean stopping;

    public Warmup(Vertx vertx, WarmupConfig config, RehearsalTenant rehearsal, UsageCounters usage,
            TenantActors actors, EdgePort edge, RefusalRehearsal refusals) {
        this.vertx = vertx;
        this.refusals = refusals;
        this.edge = edge;
        this.config = config;
        this.rehearsal = rehearsal;
        this.usage = usage;
        this.actors = actors;
    }

    /** Whether the warm-up is over (or was never to run): readiness waits for it. */
    public boolean done() {
        return done;
    }

    /** Rehearsal requests answered with something other than 202 or 200 (or not answered). */
    public long failed() {
        return other.sum();
    }

    /** The refusal rehearsal's tally once it has ended, else null. */
    public RefusalRehearsal.Tally refused() {
        return refused;
    }

    /** Requests the rehearsal has had answered so far. */
    public long sent() {
        return accepted.sum() + deduplicated.sum() + other.sum();
    }

    void onStart(@Observes StartupEvent event) {
        if (!config.enabled()) {
            done = true;
            return;
        }
        vertx.setTimer(NO_SERVER_MILLIS, t -> {
            if (started.compareAndSet(false, true)) {
                LOG.warn("warm-up: no plain HTTP server started within 10 s; taking traffic without it");
                done = true;
            }
        });
    }

    void onHttpServer(@ObservesAsync HttpServerStart server) {
        // Fired (asynchronously) once per server verticle, one per event loop: the first one starts the rehearsal.
        if (!config.enabled() || !started.compareAndSet(false, true)) {
            return;
        }
        // Through the webhook port (ingress.EdgePort, listening since start-up), the way senders come.
        String host = edge.host();
        if (host == null || host.equals("0.0.0.0") || host.equals("::") || host.equals("[::]")) {
            host = "127.0.0.1";
        }
        try {
            rehearse(host, edge.port());
        } catch (RuntimeException e) {
            // Failure policy: a warm-up that cannot run must not keep the replica out of service.
            LOG.warnf(e, "warm-up: could not start (%s); taking traffic without it", e.getMessage());
            rehearsal.close();
            done = true;
        }
    }

    /** The rehearsal stops when the shutdown delay begins, not after it: its requests would meet the 503s then. */
    void onStopping(@Observes ShutdownDelayInitiatedEvent event) {
        stopping = true;
    }

    void onStop(@Observes ShutdownEvent event) {
        stopping = true;
    }

    private void rehearse(String host, int port) {
        LOG.infof("warm-up: rehearsing the ingest path (up to %d requests or %d s) before readiness",
                config.requests(), config.maxDuration().toSeconds());
        usage.ignore(rehearsal.id());
        rehearsal.open();
        HttpClient client = vertx.createHttpClient(new HttpClientOptions().setDefaultHost(host).setDefaultPort(port)
                .setKeepAlive(true).setTcpNoDelay(true), new PoolOptions().setHttp1MaxSize(config.connections()));
        long startedNanos = System.nanoTime();
        long deadline = startedNanos + config.maxDuration().toNanos();
        AtomicInteger lanes = new AtomicInteger(config.connections());
        // The refusals run beside the signed requests, not after them: the compiler then sees both in one profile,
        // where code compiled for the signed requests alone was thrown away and compiled again once refusals came
        // (300 of the 764 compilations of a later abuse's first 15 s, bench/results/abuse-log.md).
        AtomicInteger parts = new AtomicInteger(2);
        Runnable finished = () -> {
            client.close();
            logSigned(startedNanos);
            partDone(parts);
        };
        for (int i = 0; i < config.connections(); i++) {
            next(client, deadline, lanes, finished);
        }
        refusals.run(host, port, () -> stopping).onComplete(tally -> {
            refused = tally.result();
            LOG.infof("warm-up: %d refusals rehearsed in %.1f s %s", refused.sent(), refused.seconds(),
                    refused.outcomes());
            partDone(parts);
        });
    }

    /** One of the two rehearsals ended; after both, the rehearsal tenant is closed and the compiler awaited. */
    private void partDone(AtomicInteger parts) {
        if (parts.decrementAndGet() == 0) {
            rehearsal.close();
            actors.forget(rehearsal.id());
            settle(System.nanoTime(), -1);
        }
    }

    /** One lane: the next request when the previous one was answered, until the count or the time is used up. */
    private void next(HttpClient client, long deadline, AtomicInteger lanes, Runnable finished) {
        long n = issued.getAndIncrement();
        if (stopping || n >= config.requests() || System.nanoTime() > deadline) {
            if (lanes.decrementAndGet() == 0) {
                finished.run();
            }
            return;
        }
        // One in twenty repeats an id sent 500 requests earlier, with the same body: the duplicate path is hot too.
        long id = n > 1_000 && n % DUPLICATE_EVERY == 0 ? n - 500 : n;
        byte[] body = ("{\"id\":\"rehearsal-" + id + "\",\"type\":\"warmup.rehearsal\",\"data\":{\"filler\":\""
                + filler + "\"}}").getBytes(StandardCharsets.UTF_8);
        RequestOptions request = new RequestOptions().setMethod(HttpMethod.POST)
                .setURI("/webhook/" + rehearsal.id()).setTimeout(10_000)
                .putHeader("Content-Type", "application/json")
                .putHeader("X-Event-ID", "rehearsal-" + id)
                .putHeader("X-Signature", HexFormat.of().formatHex(Hmac.hmacSha256(rehearsal.secret(), body)));
        boolean sent = send(client, request, body, status -> {
            count(status);
            next(client, deadline, lanes, finished);
        });
        if (!sent && lanes.decrementAndGet() == 0) {
            finished.run(); // the client was closed under the rehearsal: the replica is stopping
        }
    }

    /**
     * Sends one rehearsal request and hands its status (-1 for none) to {@code answered}; false, with nothing sent,
     * when the client is closed: stopped during the warm-up, Quarkus closes it under the lanes, and
     * {@code client.request} then throws rather than failing its future (an ERROR per lane, out of a Vert.x handler).
     */
    static boolean send(HttpClient client, RequestOptions request, byte[] body, IntConsumer answered) {
        try {
            client.request(request).compose(r -> r.send(Buffer.buffer(body)))
                    .compose(r -> r.body().map(b -> r.statusCode()))
                    .onComplete(answer -> answered.accept(answer.succeeded() ? answer.result() : -1));
            return true;
        } catch (IllegalStateException closed) {
            return false;
        }
    }

    private void count(int status) {
        if (status == 202) {
            accepted.increment();
        } else if (status == 200) {
            deduplicated.increment();
        } else {
            other.increment();
        }
    }

    private void logSigned(long startedNanos) {
        double seconds = (System.nanoTime() - startedNanos) / 1e9;
        if (other.sum() > 0) {
            LOG.warnf("warm-up: %d requests in %.1f s, %d of them not answered 202 or 200 (the database or the "
                    + "server failed them)", sent(), seconds, other.sum());
        } else {
            LOG.infof("warm-up: %d requests in %.1f s (%.0f/s; %d buffered and rolled back, %d duplicates)", sent(),
                    seconds, sent() / seconds, accepted.sum(), deduplicated.sum());
        }
    }

    /**
     * Waits, within {@code buffer.warmup.settle-max}, until the JIT compiler has worked off what the rehearsal gave
     * it: profiled after the rehearsal's 40,000 requests, the replica's first 4 s of real traffic still spent 57% of
     * its CPU in the C2 compiler. Settled: less than {@link #SETTLED_MILLIS} of compile time in the last
     * {@link #SETTLE_POLL_MILLIS}, twice running (the compile threads' time, from the JVM's CompilationMXBean).
     */
    private void settle(long startedNanos, long previousCompileMillis) {
        long compileMillis = compileMillis();
        long waited = System.nanoTime() - startedNanos;
        boolean quiet = previousCompileMillis >= 0 && compileMillis - previousCompileMillis < SETTLED_MILLIS;
        if (stopping || compileMillis < 0 || (quiet && quietBefore) || waited > config.settleMax().toNanos()) {
            LOG.infof("warm-up: compiler %s after %.1f s more; taking traffic", quiet ? "settled" : "still busy",
                    waited / 1e9);
            done = true;
            return;
        }
        quietBefore = quiet;
        vertx.setTimer(SETTLE_POLL_MILLIS, t -> settle(startedNanos, compileMillis));
    }

    /** The JIT's accumulated compile time (ms, all compiler threads), or -1 where the JVM does not say. */
    private static long compileMillis() {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        return jit != null && jit.isCompilationTimeMonitoringSupported() ? jit.getTotalCompilationTime() : -1;
    }
}
