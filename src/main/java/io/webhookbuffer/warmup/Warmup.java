package io.webhookbuffer.warmup;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;
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
import io.vertx.sqlclient.Pool;
import io.webhookbuffer.actor.Storage;
import io.webhookbuffer.actor.TenantActors;
import io.webhookbuffer.common.ConfigCheck;
import io.webhookbuffer.common.Hmac;
import io.webhookbuffer.ingress.EdgePort;
import io.webhookbuffer.ingress.Sinks;
import io.webhookbuffer.ingress.TenantSinks;
import io.webhookbuffer.queue.QueueConfig;
import io.webhookbuffer.queue.QueuedBytes;
import io.webhookbuffer.tenant.Tenant;

/**
 * Rehearses the ingest path before readiness. A fresh JVM runs the hot path interpreted and spends its first seconds
 * compiling it: measured here, a new replica answered 2-3k events/s at p99 130-250 ms in its first 15 s against
 * 10-11k/s at p99 20-25 ms a minute later, exactly when a rolling deploy or an autoscaler gives it traffic. So once
 * the HTTP server listens, the replica sends itself signed webhooks over loopback (the generic scheme, ~1 KB bodies,
 * one in twenty a duplicate), {@link #REQUESTS} of them or for {@code buffer.warmup.max-duration}, whichever ends
 * first, from {@link #CONNECTIONS} connections, to a tenant of its own: through the router, the gate, the lookup,
 * the MAC, the actor and the real group-commit statement; then it waits, within half the max duration, for the JIT
 * compiler to work off what the rehearsal queued. Readiness ({@link WarmupReadiness}) turns UP when it ends, whatever
 * the answers were: a database that fails the rehearsal fails the database check too, which says so.
 *
 * <p>The one seam: the rehearsal tenant exists only in this process (an id and a secret drawn at random at start and
 * never shown), held by the ingest path's {@link Sinks} with sinks that keep nothing ({@link TenantSinks#discarding}):
 * its events are written by the real statement in a transaction rolled back ({@link RolledBackWriter}), its usage
 * counted on a tally nobody flushes, its answers reported to no metric and no refusal log, its spans never started.
 * The ingest path writes every effect to its tenant's sinks and never asks whose they are; no class outside this
 * package knows the rehearsal. What it leaves: nothing in PostgreSQL but the dead tuples of the rolled-back inserts
 * (vacuum's), no usage, no ingest metric, no actor (forgotten at the end), the rehearsal tenant's rate window leases in
 * Redis (expiring), Quarkus's own {@code http_server_requests_seconds} counts; the log's start and end lines. What
 * it costs: the time to readiness and CPU before any traffic is taken.
 */
@ApplicationScoped
public class Warmup {

    /** The most requests the rehearsal sends (about 2-4 s of a quiet 2-core machine). */
    static final int REQUESTS = 40_000;
    /** Connections the rehearsal keeps busy at once (like a provider's concurrent deliveries). */
    static final int CONNECTIONS = 32;
    private static final Logger LOG = Logger.getLogger(Warmup.class);
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final char[] ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789".toCharArray();
    /** Without a plain HTTP server (HTTPS only, say) nothing is rehearsed: readiness goes on after this. */
    private static final long NO_SERVER_MILLIS = 10_000;
    private static final int DUPLICATE_EVERY = 20;
    private static final int FILLER = 960;
    private static final long SETTLE_POLL_MILLIS = 250;
    private static final long SETTLED_MILLIS = 25;

    private final Vertx vertx;
    private final WarmupConfig config;
    private final Sinks sinks;
    private final TenantActors actors;
    /** The listening server, for its port when the configured one is 0 (random: tests). */
    private final EdgePort edge;
    /** The rehearsal's tenant, held with {@link #throwAway} while the rehearsal runs. */
    private final Tenant tenant;
    private final String secret;
    private final TenantSinks throwAway;
    private final AtomicBoolean started = new AtomicBoolean();
    private final AtomicLong issued = new AtomicLong();
    private final LongAdder accepted = new LongAdder();
    private final LongAdder deduplicated = new LongAdder();
    private final LongAdder other = new LongAdder();
    private final String filler = "x".repeat(FILLER);
    private volatile boolean done;
    private boolean quietBefore;
    private volatile boolean stopping;

    public Warmup(Vertx vertx, WarmupConfig config, Sinks sinks, TenantActors actors, EdgePort edge, Pool pool,
            QueueConfig queue) {
        problems(config).throwIfAny();
        this.vertx = vertx;
        this.edge = edge;
        this.config = config;
        this.sinks = sinks;
        this.actors = actors;
        StringBuilder name = new StringBuilder("warmup-");
        for (int i = 0; i < 24; i++) {
            name.append(ALPHABET[RANDOM.nextInt(ALPHABET.length)]);
        }
        byte[] key = new byte[32];
        RANDOM.nextBytes(key);
        this.secret = HexFormat.of().formatHex(key);
        // The generic scheme (HMAC-SHA256 of the body, X-Event-ID), no rate limit to speak of, the default body limit.
        this.tenant = new Tenant(name.toString(), true, "generic", List.of(secret), Integer.MAX_VALUE, 1, null, null,
                null, null, null, null);
        // No drain to wake (nothing is kept), a quota of its own that nobody reads.
        this.throwAway = TenantSinks.discarding(new Storage(new RolledBackWriter(pool), tenantId -> { },
                new QueuedBytes(queue)));
    }

    /** Checked even when the warm-up is off, so turning it on later cannot find a setting that never reports ready. */
    static ConfigCheck problems(WarmupConfig config) {
        return new ConfigCheck().positive("buffer.warmup.max-duration", config.maxDuration());
    }

    /** Whether the warm-up is over (or was never to run): readiness waits for it. */
    public boolean done() {
        return done;
    }

    /** Rehearsal requests answered with something other than 202 or 200 (or not answered). */
    public long failed() {
        return other.sum();
    }

    /** The rehearsal's tenant (for tests: it is never shown). */
    Tenant tenant() {
        return tenant;
    }

    /** Its signing secret (for tests). */
    String secret() {
        return secret;
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
            sinks.release(tenant);
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
        LOG.infof("warm-up: rehearsing the ingest path (up to %d requests or %d s) before readiness", REQUESTS,
                config.maxDuration().toSeconds());
        sinks.hold(tenant, throwAway);
        HttpClient client = vertx.createHttpClient(new HttpClientOptions().setDefaultHost(host).setDefaultPort(port)
                .setKeepAlive(true).setTcpNoDelay(true), new PoolOptions().setHttp1MaxSize(CONNECTIONS));
        long startedNanos = System.nanoTime();
        long deadline = startedNanos + config.maxDuration().toNanos();
        AtomicInteger lanes = new AtomicInteger(CONNECTIONS);
        Runnable finished = () -> {
            client.close();
            logSigned(startedNanos);
            sinks.release(tenant);
            actors.forget(tenant.id());
            settle(System.nanoTime(), -1);
        };
        for (int i = 0; i < CONNECTIONS; i++) {
            next(client, deadline, lanes, finished);
        }
    }

    /** One lane: the next request when the previous one was answered, until the count or the time is used up. */
    private void next(HttpClient client, long deadline, AtomicInteger lanes, Runnable finished) {
        long n = issued.getAndIncrement();
        if (stopping || n >= REQUESTS || System.nanoTime() > deadline) {
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
                .setURI("/webhook/" + tenant.id()).setTimeout(10_000)
                .putHeader("Content-Type", "application/json")
                .putHeader("X-Event-ID", "rehearsal-" + id)
                .putHeader("X-Signature", HexFormat.of().formatHex(Hmac.hmacSha256(secret, body)));
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
     * Waits, within half of {@code buffer.warmup.max-duration}, until the JIT compiler has worked off what the
     * rehearsal gave it: profiled after the rehearsal's 40,000 requests, the replica's first 4 s of real traffic still
     * spent 57% of its CPU in the C2 compiler. Settled: less than {@link #SETTLED_MILLIS} of compile time in the last
     * {@link #SETTLE_POLL_MILLIS}, twice running (the compile threads' time, from the JVM's CompilationMXBean).
     */
    private void settle(long startedNanos, long previousCompileMillis) {
        long compileMillis = compileMillis();
        long waited = System.nanoTime() - startedNanos;
        boolean quiet = previousCompileMillis >= 0 && compileMillis - previousCompileMillis < SETTLED_MILLIS;
        if (stopping || compileMillis < 0 || (quiet && quietBefore) || waited > config.maxDuration().toNanos() / 2) {
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
