package io.webhookbuffer.ingress;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.jboss.logging.Logger;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import io.vertx.core.net.SocketAddress;
import io.webhookbuffer.common.BufferClock;
import io.webhookbuffer.tenant.Tenant;
import io.webhookbuffer.verify.SenderRetries;

/**
 * "Why was it refused?": the last {@link #PER_TENANT} answers of 400 and above to requests for a known
 * tenant (time, status, the answer's status word and reason, the names of the signature-like headers present, body
 * size, client address; never a header value or a body). Each replica keeps them in memory, for at most {@link
 * #MAX_TENANTS} tenants (the least recently refused go first), and every second appends what is new to one Redis list
 * per tenant, trimmed to the same bound and expiring after {@link #RETENTION}: the command that reads
 * them gets every replica's, merged. A flood costs at most one list append per tenant and second, never a Redis call
 * per request; when Redis is unreachable the reader gets this
 * replica's own, marked incomplete.
 */
@ApplicationScoped
public class RefusalLog {

    /**
     * How many of a tenant's latest refusals are kept, in each replica's memory and in the merged Redis list. The list
     * answers "why was it refused?": a refusal repeats (the same sender, the same mistake), so twenty show the pattern
     * and the newest; the counters ({@code buffer_ingress_refusals_total}) give the volume. With {@link #MAX_TENANTS}
     * it bounds the memory. Was {@code buffer.refusals.per-tenant}.
     */
    public static final int PER_TENANT = 20;

    /**
     * How long a tenant's merged list lives in Redis after its last refusal: a day covers the support ticket that
     * follows a refusal, and a list nobody added to for a day is about nothing current. Was {@code
     * buffer.refusals.retention}.
     */
    static final Duration RETENTION = Duration.ofHours(24);

    /**
     * Tenants a replica keeps refusals for; the least recently refused are forgotten first. With {@link #PER_TENANT}
     * it bounds the memory: 1,000 × 20 entries of at most ~600 bytes, about 12 MB at worst.
     */
    static final int MAX_TENANTS = 1000;

    private static final Logger LOG = Logger.getLogger(RefusalLog.class);
    /** How long the flush at shutdown may take; past it, what it had not written is given up. */
    private static final Duration SHUTDOWN_FLUSH = Duration.ofSeconds(2);
    static final String KEY_PREFIX = "wb:refusals:";
    private static final int TOO_MANY_REQUESTS = 429;
    private static final int SERVICE_UNAVAILABLE = 503;
    /** At most this many header names per entry, each cut to {@link #MAX_NAME} characters. */
    static final int MAX_NAMES = 8;
    static final int MAX_NAME = 64;
    private static final String[] SIGNATURE_LIKE = { "signature", "sig", "hmac", "token", "auth", "timestamp", "hook",
        "webhook", "delivery", "nonce" };

    private static final Comparator<Refusal> NEWEST_FIRST = Comparator
            .comparing(Refusal::at, Comparator.nullsFirst(Comparator.<String>naturalOrder())).reversed();

    /**
     * One refusal as an operator reads it. {@code senderRetries}: what the tenant's sender does after a refusal when
     * this one was answered ({@code never}, {@code briefly}, {@code long}; docs/providers.md): with {@code never}, a
     * 429 or 503 here is an event the sender will not send again.
     */
    public record Refusal(String at, int status, String outcome, String reason, List<String> signatureHeaders,
            long bodyBytes, String client, String senderRetries) {
    }

    /** What a reader gets: newest first; {@code complete} is false when only this replica's could be read. */
    public record Recent(List<Refusal> refusals, boolean complete) {
    }

    private final ReactiveRedisDataSource redis;
    private final ObjectMapper json;
    private final IngressListener listener;
    /** Guarded by itself: tenant → its last refusals, newest last; access order, the eldest evicted past the bound. */
    private final LinkedHashMap<String, Deque<Refusal>> recent;
    /** Guarded by {@link #recent}: what the next flush appends, per tenant, oldest first. */
    private Map<String, List<Refusal>> unsent = new HashMap<>();

    private final BufferClock clock;

    public RefusalLog(ReactiveRedisDataSource redis, ObjectMapper json, IngressListener listener, BufferClock clock) {
        this.clock = clock;
        this.redis = redis;
        this.json = json;
        this.listener = listener;
        this.recent = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Deque<Refusal>> eldest) {
                return size() > MAX_TENANTS;
            }
        };
    }

    /**
     * Records an answer of {@code status} ≥ 400 to a request for {@code tenant}; cheap, never blocks. A 429 or a 503
     * (a refusal the sender could only overcome by sending again) is also counted by reason and by what the sender
     * does after a refusal ({@link IngressListener#senderRefused}).
     */
    void record(Tenant tenant, IngestAnswer answer, Iterable<String> headerNames, long bodyBytes,
            SocketAddress peer) {
        if (answer.status() < 400 || answer.reply() == null) {
            return;
        }
        String tenantId = tenant.id();
        SenderRetries retries = tenant.retries();
        countIfTransient(answer, retries);
        Refusal refusal = new Refusal(Instant.ofEpochMilli(clock.millis()).toString(), answer.status(), answer.reply().status(),
                answer.reply().reason(), signatureLike(headerNames), bodyBytes, peer == null ? null : peer.hostAddress(),
                retries.label());
        synchronized (recent) {
            Deque<Refusal> ring = recent.computeIfAbsent(tenantId, t -> new ArrayDeque<>());
            ring.addLast(refusal);
            if (ring.size() > PER_TENANT) {
                ring.removeFirst();
            }
            if (unsent.size() < MAX_TENANTS || unsent.containsKey(tenantId)) {
                List<Refusal> pending = unsent.computeIfAbsent(tenantId, t -> new ArrayList<>());
                pending.add(refusal);
                if (pending.size() > PER_TENANT) {
                    pending.remove(0);
                }
            }
        }
    }

    /** A 429 or a 503: what the sender must send again, or lose. */
    private void countIfTransient(IngestAnswer answer, SenderRetries retries) {
        if (answer.status() == TOO_MANY_REQUESTS || answer.status() == SERVICE_UNAVAILABLE) {
            String reason = answer.reply().reason();
            listener.senderRefused(reason != null ? reason : answer.reply().status(), retries);
        }
    }

    /** This replica's refusals for the tenant, newest first. */
    List<Refusal> local(String tenantId) {
        synchronized (recent) {
            Deque<Refusal> ring = recent.get(tenantId);
            if (ring == null) {
                return List.of();
            }
            List<Refusal> out = new ArrayList<>(ring);
            Collections.reverse(out);
            return out;
        }
    }

    /** One tenant's refusal, for the status page. */
    public record TenantRefusal(String tenantId, Refusal refusal) {
        /** The reason words together, for a reader. */
        public String why() {
            return refusal.reason() == null ? refusal.outcome() : refusal.outcome() + ": " + refusal.reason();
        }
    }

    /** This replica's latest {@code limit} refusals over every tenant, newest first (the status page: no query). */
    public List<TenantRefusal> latest(int limit) {
        List<TenantRefusal> all = new ArrayList<>();
        synchronized (recent) {
            recent.forEach((tenantId, ring) -> ring.forEach(r -> all.add(new TenantRefusal(tenantId, r))));
        }
        all.sort(Comparator.comparing((TenantRefusal r) -> r.refusal().at()).reversed());
        return List.copyOf(all.subList(0, Math.min(limit, all.size())));
    }

    /** Every replica's refusals for the tenant, newest first, at most {@code per-tenant}. */
    public Uni<Recent> read(String tenantId) {
        return redis.execute("LRANGE", KEY_PREFIX + tenantId, "0", Integer.toString(PER_TENANT - 1))
                .map(response -> {
                    List<Refusal> out = new ArrayList<>();
                    if (response != null) {
                        response.forEach(item -> out.add(parse(item.toString())));
                    }
                    // Unflushed ones of this replica too, so a refusal just answered is there at once.
                    for (Refusal mine : local(tenantId)) {
                        if (!out.contains(mine)) {
                            out.add(mine);
                        }
                    }
                    out.sort(NEWEST_FIRST);
                    return new Recent(List.copyOf(out.subList(0, Math.min(PER_TENANT, out.size()))), true);
                })
                .onFailure().recoverWithItem(e -> {
                    LOG.debugf("refusals of %s read from this replica only: %s", tenantId, e.toString());
                    return new Recent(local(tenantId), false);
                });
    }

    /** Appends what is new to each tenant's Redis list (newest at the head), trims it and renews its expiry. */
    @Scheduled(every = "1s", concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    Uni<Void> flush() {
        Map<String, List<Refusal>> batch;
        synchronized (recent) {
            if (unsent.isEmpty()) {
                return Uni.createFrom().voidItem();
            }
            batch = unsent;
            unsent = new HashMap<>();
        }
        List<Uni<Void>> writes = new ArrayList<>(batch.size());
        batch.forEach((tenantId, refusals) -> writes.add(append(tenantId, refusals)));
        return Uni.join().all(writes).andCollectFailures().replaceWithVoid()
                .onFailure().recoverWithItem(e -> {
                    // Kept in memory and read from here meanwhile; not queued again: a later refusal is what counts.
                    LOG.debugf("refusals not written to Redis: %s", e.toString());
                    return null;
                });
    }

    /**
     * The last interval's refusals go to Redis at shutdown too: the scheduled flush skips once shutdown has begun, and
     * the refusals of a replica's last second (the 503s of its own shutdown among them) would be lost with it. Runs
     * after the HTTP server's graceful end and before the Redis client closes; bounded by {@link #SHUTDOWN_FLUSH}.
     */
    void flushAtShutdown(@Observes ShutdownEvent event) {
        try {
            flush().await().atMost(SHUTDOWN_FLUSH);
        } catch (RuntimeException e) {
            LOG.debugf("refusals not written to Redis at shutdown: %s", e.toString());
        }
    }

    private Uni<Void> append(String tenantId, List<Refusal> refusals) {
        String key = KEY_PREFIX + tenantId;
        String[] push = new String[refusals.size() + 2];
        push[0] = "LPUSH";
        push[1] = key;
        for (int i = 0; i < refusals.size(); i++) {
            push[i + 2] = write(refusals.get(i));
        }
        return redis.execute(push[0], Arrays.copyOfRange(push, 1, push.length))
                .flatMap(r -> redis.execute("LTRIM", key, "0", Integer.toString(PER_TENANT - 1)))
                .flatMap(r -> redis.execute("EXPIRE", key, Long.toString(RETENTION.toSeconds())))
                .replaceWithVoid();
    }

    /** The names of the headers a signature scheme might use, lower case, bounded in count and length. */
    static List<String> signatureLike(Iterable<String> headerNames) {
        List<String> out = new ArrayList<>();
        for (String name : headerNames) {
            String lower = name.toLowerCase(Locale.ROOT);
            if (out.size() == MAX_NAMES) {
                break;
            }
            for (String hint : SIGNATURE_LIKE) {
                if (lower.contains(hint)) {
                    String shown = lower.length() > MAX_NAME ? lower.substring(0, MAX_NAME) : lower;
                    if (!out.contains(shown)) {
                        out.add(shown);
                    }
                    break;
                }
            }
        }
        return out;
    }

    private String write(Refusal refusal) {
        try {
            return json.writeValueAsString(refusal);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a refusal did not serialise", e); // strings and numbers: never
        }
    }

    private Refusal parse(String value) {
        try {
            return json.readValue(value, Refusal.class);
        } catch (JsonProcessingException e) {
            return new Refusal(null, 0, "unreadable", null, List.of(), -1, null, null);
        }
    }
}
