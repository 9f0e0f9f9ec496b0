package io.webhookbuffer.ratelimit.shared;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.Startup;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Response;
import io.webhookbuffer.common.BufferClock;
import io.webhookbuffer.ratelimit.LeasedWindow;

/**
 * The shared side of {@link LeasedWindow} (pure, in {@code ratelimit}): one Redis hash per tenant window
 * ({@code wb:rl:<deployment>:<tenant>:<limit>:<window>},
 * field = a second of Redis's clock, value = slots granted then), changed only by one Lua script (EVALSHA) that gives
 * back unused slots, drops seconds older than the window, and grants up to what the window has left, atomically. One
 * call per lease (up to {@link #MAX_LEASE} events), never one per event.
 *
 * <p>It also keeps the replica count that sizes leases and the fallback share: each replica renews its entry in the
 * sorted set {@code wb:replicas:<deployment>} (score = when it lapses) every {@link #HEARTBEAT}, and counts the live
 * entries; a replica that stops is gone after three heartbeats. With Redis unreachable the last count seen stays.
 *
 * <p>{@code <deployment>} names the replicas that share a database: the first 12 hex digits of the SHA-256 of
 * {@code quarkus.datasource.reactive.url}. Two deployments on one Redis (staging and production, two test runs)
 * neither count each other as replicas nor share a tenant's window.
 */
@ApplicationScoped
@Startup
public class SharedWindows {

    private static final Logger LOG = Logger.getLogger(SharedWindows.class);
    /**
     * KEYS[1] the window; ARGV now-less: window seconds, limit, slots wanted, n, then n (age in seconds, count) pairs the
     * local share admitted while Redis was away (counted at Redis's now minus their age), then (second, count) pairs to
     * give back. Returns {granted, retry-after seconds when none, the grant second}.
     */
    static final String SCRIPT = """
            local t = redis.call('TIME')
            local now = tonumber(t[1])
            local window = tonumber(ARGV[1])
            local limit = tonumber(ARGV[2])
            local want = tonumber(ARGV[3])
            local oldest = now - window + 1
            local admitted = 5 + 2 * tonumber(ARGV[4])
            for i = 5, admitted - 1, 2 do
              local s = now - tonumber(ARGV[i])
              if s >= oldest then redis.call('HINCRBY', KEYS[1], tostring(s), tonumber(ARGV[i + 1])) end
            end
            for i = admitted, #ARGV, 2 do
              if tonumber(ARGV[i]) >= oldest then
                local kept = redis.call('HINCRBY', KEYS[1], ARGV[i], -tonumber(ARGV[i + 1]))
                if kept <= 0 then redis.call('HDEL', KEYS[1], ARGV[i]) end
              end
            end
            local fields = redis.call('HGETALL', KEYS[1])
            local used = 0
            local first = now
            for i = 1, #fields, 2 do
              local s = tonumber(fields[i])
              if s < oldest then
                redis.call('HDEL', KEYS[1], fields[i])
              else
                used = used + tonumber(fields[i + 1])
                if s < first then first = s end
              end
            end
            local granted = math.max(0, math.min(want, limit - used))
            if granted > 0 then redis.call('HINCRBY', KEYS[1], tostring(now), granted) end
            redis.call('EXPIRE', KEYS[1], window + 60)
            local retry = 0
            if granted == 0 then retry = math.max(1, first + window - now) end
            return {granted, retry, now}
            """;
    static final String SCRIPT_SHA = hex("SHA-1", SCRIPT);

    /** A lease's answer: slots granted at {@code second} of Redis's clock, or none and when to retry. */
    public record Grant(int granted, long retryAfterSeconds, long second) {
    }

    /** The outcomes {@link #count} knows, the label values of {@code buffer_ratelimit_leases_total}. */
    public static final List<String> OUTCOMES = List.of("granted", "denied", "failed");

    /**
     * How long a lease's slots are used before what is left is given back, in seconds (leases are counted in whole
     * seconds); on the fallback, how often a lease is tried again. Short enough that slots a replica took and did not
     * use return to the others within a couple of seconds, long enough that a busy tenant asks Redis about once per
     * lease rather than per event. Not a setting: {@link #MAX_LEASE} bounds the slots one lease holds.
     */
    public static final int LEASE_PERIOD_SECONDS = 2;

    /**
     * The most slots one lease takes; leases are also capped at limit / (20 x replicas), which keeps the excess at most
     * 7.5% of the limit (docs/operations.md, "Shared rate windows"). 100 makes a tenant at 10,000 events a second ask
     * Redis 100 times a second per replica, and the cap, not this, decides for every smaller limit. Was
     * {@code buffer.ratelimit.max-lease}.
     */
    public static final int MAX_LEASE = 100;

    /**
     * How long a lease may take before admission falls back to the local share of the limit (each fallback can admit
     * a share over the limit). A lease is one Redis call, under a millisecond on a LAN and tens across regions; one
     * second is long enough that a replica short of CPU does not fall back with Redis up, and an event waits this
     * long at most once per outage (the fallback then retries without holding events). Was {@code
     * buffer.ratelimit.redis-timeout}.
     */
    static final Duration REDIS_TIMEOUT = Duration.ofSeconds(1);

    /**
     * How often each replica renews its presence, which gives every replica the replica count; an entry lapses after
     * three. A new replica is counted within 5 s, a crashed one forgotten within 15 s (one that stops says so at once):
     * while the count is short, leases are sized for fewer replicas, within the same bound. Was {@code
     * buffer.ratelimit.heartbeat}.
     */
    static final Duration HEARTBEAT = Duration.ofSeconds(5);

    private final ReactiveRedisDataSource redis;
    private final RateLimitConfig config;
    private final LeaseListener listener;
    private final String replicaId = UUID.randomUUID().toString();
    private final String windowPrefix;
    private final String replicasKey;
    private volatile int replicas = 1;
    private final AtomicLong lastGrant = new AtomicLong();
    private final AtomicLong lastFailure = new AtomicLong();
    private final AtomicLong granted = new AtomicLong();
    private final AtomicLong denied = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final BufferClock clock;

    public SharedWindows(ReactiveRedisDataSource redis, RateLimitConfig config, LeaseListener listener,
            @ConfigProperty(name = "quarkus.datasource.reactive.url") Optional<String> database, BufferClock clock) {
        this.redis = redis;
        this.clock = clock;
        this.config = config;
        this.listener = listener;
        String deployment = hex("SHA-256", database.orElse("")).substring(0, 12);
        this.windowPrefix = "wb:rl:" + deployment + ":";
        this.replicasKey = "wb:replicas:" + deployment;
    }

    public RateLimitConfig config() {
        return config;
    }

    /** Replicas seen alive at the last heartbeat (1 before the first, or alone). */
    public int replicas() {
        return replicas;
    }

    /** True while the last lease this replica asked for failed: some tenants run on their local share. */
    public boolean fallback() {
        return lastFailure.get() > lastGrant.get();
    }

    /** Leases by outcome since start: granted (at least one slot), denied (none left), failed (Redis unreachable). */
    public long count(String outcome) {
        return switch (outcome) {
            case "granted" -> granted.get();
            case "denied" -> denied.get();
            default -> failed.get();
        };
    }

    /** Asks the tenant's shared window for a lease; fails (never throws) when Redis is away or slower than its timeout. */
    public CompletionStage<Grant> lease(String tenantId, int limit, int windowSeconds, LeasedWindow.LeaseRequest request) {
        List<String> args = new ArrayList<>(7 + 2 * (request.giveBack().size() + request.admittedByAge().size()));
        args.add(SCRIPT_SHA);
        args.add("1");
        args.add(windowPrefix + tenantId + ":" + limit + ":" + windowSeconds);
        args.add(Integer.toString(windowSeconds));
        args.add(Integer.toString(limit));
        args.add(Integer.toString(request.want()));
        args.add(Integer.toString(request.admittedByAge().size()));
        for (Map.Entry<Long, Integer> admitted : request.admittedByAge().entrySet()) {
            args.add(Long.toString(admitted.getKey()));
            args.add(Integer.toString(admitted.getValue()));
        }
        for (Map.Entry<Long, Integer> back : request.giveBack().entrySet()) {
            args.add(Long.toString(back.getKey()));
            args.add(Integer.toString(back.getValue()));
        }
        CompletableFuture<Grant> answer = new CompletableFuture<>();
        long started = System.nanoTime();
        try {
            call(args).ifNoItem().after(REDIS_TIMEOUT).fail()
                    .subscribe().with(response -> {
                        listener.answered(System.nanoTime() - started);
                        answer.complete(grant(response));
                    }, failure -> {
                        failed.incrementAndGet();
                        lastFailure.set(System.nanoTime());
                        LOG.debugf("tenant %s: no lease from Redis (%s): its local share admits", tenantId, failure);
                        answer.completeExceptionally(failure);
                    });
        } catch (RuntimeException e) {
            failed.incrementAndGet();
            lastFailure.set(System.nanoTime());
            answer.completeExceptionally(e);
        }
        return answer;
    }

    private Uni<Response> call(List<String> evalshaArgs) {
        String[] args = evalshaArgs.subList(1, evalshaArgs.size()).toArray(String[]::new);
        return redis.execute("EVALSHA", evalshaArgs.toArray(String[]::new)).onFailure(SharedWindows::noScript)
                .recoverWithUni(() -> {
                    String[] eval = new String[args.length + 1];
                    eval[0] = SCRIPT;
                    System.arraycopy(args, 0, eval, 1, args.length);
                    return redis.execute("EVAL", eval);
                });
    }

    private static boolean noScript(Throwable failure) {
        return failure.getMessage() != null && failure.getMessage().startsWith("NOSCRIPT");
    }

    private Grant grant(Response response) {
        Grant g = new Grant(response.get(0).toInteger(), response.get(1).toLong(), response.get(2).toLong());
        (g.granted() > 0 ? granted : denied).incrementAndGet();
        lastGrant.set(System.nanoTime());
        return g;
    }

    @Scheduled(every = "5s", concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    Uni<Void> heartbeat() {
        long now = clock.realMillis();
        long lapse = now + 3 * HEARTBEAT.toMillis();
        return redis.execute("ZADD", replicasKey, Long.toString(lapse), replicaId)
                .flatMap(r -> redis.execute("ZREMRANGEBYSCORE", replicasKey, "-inf", Long.toString(now)))
                .flatMap(r -> redis.execute("EXPIRE", replicasKey, Long.toString(3 * HEARTBEAT.toSeconds() + 60)))
                .flatMap(r -> redis.execute("ZCARD", replicasKey))
                .ifNoItem().after(REDIS_TIMEOUT.multipliedBy(4)).fail()
                .invoke(count -> replicas = Math.max(1, count.toInteger()))
                .onFailure().recoverWithItem(failure -> {
                    LOG.debugf("replica heartbeat not written (%s): the last count seen (%d) stays", failure, replicas);
                    return null;
                })
                .replaceWithVoid();
    }

    /**
     * A replica that stops says so, so the others' count drops at their next heartbeat, not three later. On the
     * shutdown event, while the Redis client is still open (at {@code @PreDestroy} it is already closed).
     */
    void leave(@Observes ShutdownEvent event) {
        try {
            // Waits (at most the Redis timeout, on the shutdown thread): the client closes right after.
            redis.execute("ZREM", replicasKey, replicaId).await().atMost(REDIS_TIMEOUT);
        } catch (RuntimeException e) {
            LOG.debugf("replica entry not removed at shutdown: %s", e);
        }
    }

    private static String hex(String digest, String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance(digest)
                    .digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
