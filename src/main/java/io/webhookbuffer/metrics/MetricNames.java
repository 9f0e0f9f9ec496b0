package io.webhookbuffer.metrics;

import java.util.List;
import java.util.Locale;

/**
 * Every meter the buffer exports, with its Micrometer name, kind and description, in one place. The Prometheus name
 * is derived the way the Prometheus registry derives it ({@link Metric#prometheus()}). Alert rules, the Grafana
 * dashboard and docs/runbook.md use these names; ManifestTests checks that they exist here and at /q/metrics.
 *
 * <p>Labels are bounded: {@code outcome}, {@code reason} and {@code sender_retries} (a fixed set per meter),
 * {@code tenant} only on the two top-N backlog gauges ({@code buffer.metrics.top-tenants} tenants at most, replaced
 * on every snapshot), {@code origin} only on the circuit gauge while a breaker is open (at most
 * {@link #MAX_ORIGIN_LABELS}).
 */
public final class MetricNames {

    /** How Micrometer exports a meter, which decides its Prometheus suffix. */
    public enum Kind {
        COUNTER, TIMER, SUMMARY, GAUGE
    }

    /** One exported meter. */
    public record Metric(String name, Kind kind, String description) {
        /** The Prometheus family name: counters end in {@code _total}, timers in {@code _seconds}. */
        public String prometheus() {
            String base = name.replace('.', '_').toLowerCase(Locale.ROOT);
            return switch (kind) {
                case COUNTER -> base + "_total";
                case TIMER -> base + "_seconds";
                case SUMMARY, GAUGE -> base;
            };
        }
    }

    public static final String OUTCOME = "outcome";
    public static final String TENANT = "tenant";
    public static final String ORIGIN = "origin";
    public static final String REASON = "reason";
    public static final String SENDER_RETRIES = "sender_retries";
    /** The circuit gauge keeps at most this many origins (the open ones); the count gauge covers the rest. */
    public static final int MAX_ORIGIN_LABELS = 20;

    public static final Metric INGEST = new Metric("buffer.ingest", Kind.COUNTER,
            "Ingest answers by outcome: buffered, deduplicated, rate_limited, queue_quota, bad_signature,"
                    + " unknown_tenant, too_large, unavailable, handshake, not_storable");
    public static final Metric INGEST_ACK = new Metric("buffer.ingest.ack", Kind.TIMER,
            "Time from the request reaching the ingest handler to its answer, by outcome (202s wait for the commit)");
    public static final Metric COMMITS = new Metric("buffer.queue.commits", Kind.COUNTER,
            "Group commits (one INSERT statement each) run against PostgreSQL");
    public static final Metric COMMITTED_EVENTS = new Metric("buffer.queue.committed.events", Kind.COUNTER,
            "Events carried by group commits (divide by buffer_queue_commits_total for the mean batch)");
    public static final Metric COMMIT_SECONDS = new Metric("buffer.queue.commit.seconds", Kind.COUNTER,
            "Time spent waiting for group commits (divide by buffer_queue_commits_total for the mean)");
    public static final Metric COMMIT_BATCH_SIZE = new Metric("buffer.queue.commit.batch.size", Kind.SUMMARY,
            "Events per group commit");
    public static final Metric COMMIT_LATENCY = new Metric("buffer.queue.commit.latency", Kind.TIMER,
            "Time from sending a group commit to PostgreSQL's answer (or its failure)");
    public static final Metric BACKLOG_EVENTS = new Metric("buffer.backlog.events", Kind.GAUGE,
            "Events in the durable queue, all tenants (from the last backlog snapshot)");
    public static final Metric BACKLOG_OLDEST_AGE = new Metric("buffer.backlog.oldest.age.seconds", Kind.GAUGE,
            "Age of the oldest event still queued, all tenants (0 when the queue is empty)");
    public static final Metric BACKLOG_TENANTS = new Metric("buffer.backlog.tenants", Kind.GAUGE,
            "Tenants with at least one queued event");
    public static final Metric BACKLOG_SNAPSHOT_AGE = new Metric("buffer.backlog.snapshot.age.seconds", Kind.GAUGE,
            "Seconds since the backlog gauges were last refreshed from PostgreSQL, or since the start before the first "
                    + "refresh (grows while the database is away)");
    public static final Metric TENANT_BACKLOG_EVENTS = new Metric("buffer.tenant.backlog.events", Kind.GAUGE,
            "Queued events of the top-N tenants by oldest pending age (label tenant; N = buffer.metrics.top-tenants)");
    public static final Metric TENANT_BACKLOG_OLDEST_AGE = new Metric("buffer.tenant.backlog.oldest.age.seconds",
            Kind.GAUGE, "Oldest pending age of the top-N tenants by that age (label tenant)");
    public static final Metric QUOTA_NEAR_TENANTS = new Metric("buffer.queue.quota.near.tenants", Kind.GAUGE,
            "Tenants whose queued body bytes are at 80% or more of their queue quota (maxQueuedBytes, else"
                    + " buffer.queue.max-queued-bytes-per-tenant), from the last backlog snapshot");
    public static final Metric QUOTA_FULL_TENANTS = new Metric("buffer.queue.quota.full.tenants", Kind.GAUGE,
            "Tenants at or past their queue quota, or above the storage guard's level: their new events are answered"
                    + " 429 queue_quota");
    public static final Metric STORAGE_USED = new Metric("buffer.queue.storage.used.ratio", Kind.GAUGE,
            "All tenants' queued body bytes as a share of buffer.queue.max-queued-bytes (0 when unset); past 1 the"
                    + " largest backlogs are refused");
    public static final Metric DELIVERY = new Metric("buffer.delivery", Kind.COUNTER,
            "Batch delivery attempts by outcome: success, failed (5xx, 429, 3xx, timeout, no answer: retried),"
                    + " refused (other 4xx: split, dead-lettered), circuit_open (not sent)");
    public static final Metric DELIVERY_LATENCY = new Metric("buffer.delivery.latency", Kind.TIMER,
            "Time the origin took to answer a batch (attempts that were sent)");
    public static final Metric DELIVERED = new Metric("buffer.delivery.delivered", Kind.COUNTER,
            "Events the origin accepted (rows deleted from the queue)");
    public static final Metric DEAD_LETTERED = new Metric("buffer.delivery.dead.lettered", Kind.COUNTER,
            "Events moved to dead_letters by this replica (the growth of buffer_dead_letters)");
    public static final Metric FAILED_BATCHES = new Metric("buffer.delivery.failed.batches", Kind.COUNTER,
            "Batches the origin did not accept (retried, split or dead-lettered)");
    public static final Metric DEAD_LETTERS = new Metric("buffer.dead.letters", Kind.GAUGE,
            "Rows in dead_letters, all tenants (from the last backlog snapshot)");
    public static final Metric INGRESS_IN_FLIGHT = new Metric("buffer.ingress.in.flight.bytes", Kind.GAUGE,
            "Request body bytes held on this replica by ingest requests between admission and answer (new ones get"
                    + " 503 replica_busy at buffer.ingress.max-in-flight-bytes)");
    public static final Metric INGRESS_REFUSALS = new Metric("buffer.ingress.refusals", Kind.COUNTER,
            "Ingest requests turned away for lack of room or trust, or malformed, by reason: lookup_busy, replica_busy,"
                    + " verification_busy, not_stored, invalid_host, invalid_path, too_many_headers,"
                    + " request_timeout, head_timeout (closed, no answer), too_many_connections");
    public static final Metric SENDER_REFUSALS = new Metric("buffer.sender.refusals", Kind.COUNTER,
            "Requests for a known tenant answered 429 or 503 (what a sender must send again, or lose), by reason"
                    + " (rate_limited, queue_quota, handshake_rate, tenant_overloaded, not_stored, replica_busy,"
                    + " verification_busy, lookup_busy, other) and sender_retries (never, briefly, long): with never,"
                    + " each is an event lost for good");
    public static final Metric VERIFICATIONS_OFFLOADED = new Metric("buffer.ingress.verifications.offloaded",
            Kind.COUNTER, "Request bodies verified on the verification pool, off the event loop (at least"
                    + " buffer.ingress.verification.offload-bytes, or any size under a public-key signature)");
    public static final Metric ACTORS_LIVE = new Metric("buffer.actors.live", Kind.GAUGE,
            "Tenant actors currently in memory");
    public static final Metric MAILBOX_DEPTH = new Metric("buffer.actors.mailbox.depth", Kind.GAUGE,
            "Events between arrival and answer, summed over all tenant actors");
    public static final Metric CIRCUITS_OPEN = new Metric("buffer.origin.circuits.open", Kind.GAUGE,
            "Origins whose circuit breaker is open (batches to them are not sent)");
    public static final Metric CIRCUIT_OPEN = new Metric("buffer.origin.circuit.open", Kind.GAUGE,
            "1 for each origin (label origin: scheme://host:port) whose circuit breaker is open");
    public static final Metric REDIS_FALLBACK = new Metric("buffer.redis.fallback", Kind.GAUGE,
            "1 while Redis is unreachable: tenant changes reach other replicas only through the cache TTL and"
                    + " signed commands are refused");
    public static final Metric RATELIMIT_FALLBACK = new Metric("buffer.ratelimit.fallback", Kind.GAUGE,
            "1 while this replica's last lease of a shared rate window failed (Redis unreachable or slower than"
                    + " buffer.ratelimit.redis-timeout): tenants are admitted on their local share, limit / replicas");
    public static final Metric RATELIMIT_REPLICAS = new Metric("buffer.ratelimit.replicas", Kind.GAUGE,
            "Replicas this one sees sharing the rate windows (their heartbeats in Redis): leases and the fallback share"
                    + " are sized for this many");
    public static final Metric RATELIMIT_LEASES = new Metric("buffer.ratelimit.leases", Kind.COUNTER,
            "Leases of rate slots asked of the shared windows, by outcome: granted (at least one slot), denied (the"
                    + " tenant's window is full), failed (Redis unreachable or too slow: local share)");
    public static final Metric RATELIMIT_LEASE_LATENCY = new Metric("buffer.ratelimit.lease.latency", Kind.TIMER,
            "How long answered leases of the shared rate windows took (Redis's round trip and this replica's event"
                    + " loop); a lease past buffer.ratelimit.redis-timeout is counted as failed instead");
    /** Counted by controlplane.LifecycleOutbox, which registers it under this name (it may not import this class). */
    public static final Metric LIFECYCLE_REFUSED = new Metric("buffer.lifecycle.refused", Kind.COUNTER,
            "Lifecycle events the control plane refused alone (a 4xx after halving): set aside, not sent again, kept"
                    + " for buffer.queue.dead-letter-retention");
    public static final Metric READY = new Metric("buffer.ready", Kind.GAUGE,
            "1 when the last readiness check reached PostgreSQL, else 0");

    public static final List<Metric> ALL = List.of(INGEST, INGEST_ACK, COMMITS, COMMITTED_EVENTS, COMMIT_SECONDS,
            COMMIT_BATCH_SIZE, COMMIT_LATENCY, BACKLOG_EVENTS, BACKLOG_OLDEST_AGE, BACKLOG_TENANTS,
            BACKLOG_SNAPSHOT_AGE, TENANT_BACKLOG_EVENTS, TENANT_BACKLOG_OLDEST_AGE, QUOTA_NEAR_TENANTS,
            QUOTA_FULL_TENANTS, STORAGE_USED, DELIVERY, DELIVERY_LATENCY,
            DELIVERED, DEAD_LETTERED, FAILED_BATCHES, DEAD_LETTERS, INGRESS_IN_FLIGHT, INGRESS_REFUSALS, SENDER_REFUSALS,
            VERIFICATIONS_OFFLOADED, ACTORS_LIVE, MAILBOX_DEPTH,
            CIRCUITS_OPEN, CIRCUIT_OPEN, REDIS_FALLBACK, RATELIMIT_FALLBACK, RATELIMIT_REPLICAS,
            RATELIMIT_LEASES, RATELIMIT_LEASE_LATENCY, LIFECYCLE_REFUSED, READY);

    private MetricNames() {
    }
}
