package io.webhookbuffer.ops;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;

import io.webhookbuffer.common.ConfigCheck;

/**
 * Settings that no longer exist (issue 42 item 3: the table lists what operators set), each with what replaced it.
 * A replica started with one of them set refuses to start, naming the key and its replacement: an operator who had
 * set one meant something by it, and running on without it would change what the replica does without a word.
 * SmallRye Config already refuses an unknown {@code buffer.*} key from a properties file or a system property ("does
 * not map to any root"), but not from an environment variable, which is how the image, compose and {@code k8s/} set
 * everything: {@code BUFFER_ACTOR_IDLE_EVICTION} went on being set by the benchmark, unread, after its key was gone.
 * So this check asks for every retired key by name, which finds it in every source. The value is never printed.
 */
public final class RetiredSettings {

    private static final String CONSTANT = "now a constant: ";

    /** Key, and what replaced it (docs/configuration.md, "Why each key exists"). */
    static final Map<String, String> RETIRED = new TreeMap<>(Map.ofEntries(
            // 2026-12-06, the first rounds
            Map.entry("buffer.tenants.invalidation-channel", CONSTANT + "webhook-buffer:tenant-changed"),
            Map.entry("buffer.actor.recent-ids", CONSTANT + "1,000 ids per tenant"),
            Map.entry("buffer.actor.turn-length", CONSTANT + "64 events a turn"),
            Map.entry("buffer.actor.threads", CONSTANT + "one actor thread per core"),
            Map.entry("buffer.actor.overloaded-retry-after-seconds", CONSTANT + "1 s"),
            Map.entry("buffer.ratelimit.lease-period", CONSTANT + "2 s"),
            Map.entry("buffer.usage.path", CONSTANT + "/usage, the control plane's API"),
            Map.entry("buffer.lifecycle.path", CONSTANT + "/lifecycle-events, the control plane's API"),
            Map.entry("buffer.control.request-timeout", CONSTANT + "ControlPlaneClient's timeout"),
            Map.entry("buffer.queue.depth-fold-interval", CONSTANT + "30 s"),
            Map.entry("buffer.dedupe.cleanup-batch-size", CONSTANT + "5,000"),
            Map.entry("buffer.dedupe.cleanup-interval", CONSTANT + "5 min"),
            Map.entry("buffer.control.nonce-ttl", CONSTANT + "600 s, twice the timestamp tolerance"),
            Map.entry("buffer.usage.flush-interval", CONSTANT + "10 s"),
            Map.entry("buffer.status.refresh", CONSTANT + "10 s"),
            Map.entry("buffer.tenants.max-concurrent-refreshes", CONSTANT + "2"),
            Map.entry("buffer.refusals.max-tenants", CONSTANT + "1,000"),
            Map.entry("buffer.refusals.flush-interval", CONSTANT + "1 s"),
            Map.entry("buffer.tenants.cache-size", CONSTANT + "100,000"),
            Map.entry("buffer.actor.idle-eviction", CONSTANT + "10 min"),
            // this round
            Map.entry("buffer.ingress.max-header-count", CONSTANT + "100 lines"),
            Map.entry("buffer.actor.unavailable-retry-after-seconds", CONSTANT + "30 s"),
            Map.entry("buffer.ratelimit.max-lease", CONSTANT + "100 slots"),
            Map.entry("buffer.ratelimit.redis-timeout", CONSTANT + "1 s"),
            Map.entry("buffer.ratelimit.heartbeat", CONSTANT + "5 s"),
            Map.entry("buffer.lifecycle.batch-size", CONSTANT + "50 events a POST"),
            Map.entry("buffer.control.timestamp-tolerance", CONSTANT + "300 s either way, the seam's contract"),
            Map.entry("buffer.refusals.per-tenant", CONSTANT + "20 refusals a tenant"),
            Map.entry("buffer.refusals.retention", CONSTANT + "24 h"),
            Map.entry("buffer.tenants.cache-ttl", CONSTANT + "60 s (buffer.tenants.cache-refresh is the knob)"),
            Map.entry("buffer.tenants.origin-pull.max-waiting", "derived: 4 x buffer.tenants.origin-pull.max-concurrent"),
            Map.entry("buffer.tenants.origin-pull.max-wait", CONSTANT + "1 s"),
            Map.entry("buffer.origin.max-answer-bytes", CONSTANT + "64 KiB"),
            Map.entry("buffer.delivery.circuit-breaker.failure-ratio", CONSTANT + "0.5"),
            Map.entry("buffer.ingress.verification.failure-window", CONSTANT + "60 s"),
            Map.entry("buffer.ingress.verification.max-failures-per-tenant", CONSTANT + "200"),
            Map.entry("buffer.ingress.verification.guarded-concurrency", CONSTANT + "2"),
            Map.entry("buffer.delivery.sweep-batch", "derived: 16 x buffer.delivery.max-concurrent"),
            Map.entry("buffer.status.session-ttl", CONSTANT + "8 h; change buffer.status.token to end every session"),
            Map.entry("buffer.queue.max-batch-size", CONSTANT + "512; for a database with room, raise"
                    + " buffer.queue.max-concurrent-commits"),
            Map.entry("buffer.ingress.direct-route", "gone: the direct route is the only ingest path"),
            // the confined rehearsal (warmup.Warmup)
            Map.entry("buffer.warmup.requests", CONSTANT + "40,000 (buffer.warmup.max-duration bounds the rehearsal)"),
            Map.entry("buffer.warmup.connections", CONSTANT + "32"),
            Map.entry("buffer.warmup.refusals", "gone: the refusals are no longer rehearsed"),
            Map.entry("buffer.warmup.settle-max", "derived: half of buffer.warmup.max-duration")));

    private RetiredSettings() {
    }

    /** The retired keys (ConfigTableTests: none of them is a key of the mappings again). */
    public static Set<String> keys() {
        return RETIRED.keySet();
    }

    /** One problem per retired key that {@code isSet} finds set, naming the key and what replaced it. */
    public static ConfigCheck problems(Predicate<String> isSet) {
        ConfigCheck check = new ConfigCheck();
        RETIRED.forEach((key, replacement) -> check.require(!isSet.test(key), key + " is no longer a setting ("
                + replacement + "); remove it (docs/configuration.md)"));
        return check;
    }
}
