package io.webhookbuffer.queue;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;
import io.webhookbuffer.common.BufferClock;

/**
 * Reads the backlog snapshot on a schedule and keeps the last one, so Prometheus scrapes and status page views cost
 * no query, and the queued bytes per tenant that the queue quota is checked against ({@link QueuedBytes}), so ingest
 * costs no query for it: however often they come, PostgreSQL sees three aggregate statements per
 * {@code buffer.queue.snapshot-interval},
 * and never a second pair while one is still running (SKIP). Failure policy: keep the previous snapshot; its
 * {@code takenAt} ages, which {@code buffer_backlog_snapshot_age_seconds} shows. A read is given up after the interval
 * or {@link #MIN_TIMEOUT}, whichever is longer: a short interval must not fail a read that is only slow (many
 * tenants, a busy database), because a read that always fails leaves the figures frozen.
 */
@ApplicationScoped
public class QueueSnapshots {

    private static final Logger LOG = Logger.getLogger(QueueSnapshots.class);
    static final Duration MIN_TIMEOUT = Duration.ofSeconds(15);

    /**
     * {@code depth}: every tenant with queued rows and how many, summed from the queue_depth counters (migration V12:
     * kept by triggers in the statements that insert and delete queue rows, a few rows per tenant); and, as
     * {@code per}, each of those tenants with its depth ({@code events}) and its head, the next row to deliver (the
     * first by id, one probe of the (tenant_id, id) primary key): {@code oldest} (its received_at), {@code attempts},
     * {@code next_attempt} and, once tried (a refused connection is tried, not attempted: see {@code waits}), the
     * origin's last answer. O(tenants): nothing here reads a row per
     * queued event. Shared by the backlog snapshot and the lifecycle scan (LifecycleStore).
     */
    public static final String QUEUED_HEADS = """
            WITH depth AS (
                SELECT tenant_id, sum(events)::bigint AS events FROM queue_depth
                GROUP BY tenant_id HAVING sum(events) > 0
            ), per AS (
                SELECT d.tenant_id, d.events,
                       h.received_at AS oldest, h.attempts, h.next_attempt_at AS next_attempt,
                       CASE WHEN h.attempts > 0 OR h.waits > 0 THEN h.last_status END AS last_status,
                       CASE WHEN h.attempts > 0 OR h.waits > 0 THEN h.last_error END AS last_error
                FROM depth d CROSS JOIN LATERAL (
                    SELECT q.received_at, q.attempts, q.waits, q.next_attempt_at, q.last_status, q.last_error
                    FROM event_queue q WHERE q.tenant_id = d.tenant_id ORDER BY q.id LIMIT 1) h
            )""";

    /**
     * Every tenant with queued rows, with its depth and head ({@link #QUEUED_HEADS}); totals over all tenants; the
     * $1 oldest heads. Ages use the database clock, the same clock that stamped received_at.
     *
     * <p>Its cost follows the number of tenants, not the backlog: counting each tenant's rows on the primary key (what
     * it did until the counters) took 0.8-0.9 s over 317k rows too fresh for vacuum to have marked their pages
     * all-visible, every interval, and would have taken tens of seconds after an hour of origin outage; see
     * docs/performance.md, "The backlog snapshot's cost", for the figures at 10k and 10M queued events.
     */
    static final String BACKLOG = QUEUED_HEADS + """
            , totals AS (
                SELECT coalesce(sum(events), 0)::bigint AS events, min(oldest) AS oldest, count(*) AS tenants FROM per
            ), top AS (
                SELECT * FROM per ORDER BY oldest LIMIT $1
            )
            SELECT t.events AS total_events,
                   coalesce(extract(epoch FROM now() - t.oldest), 0)::bigint AS total_age,
                   t.tenants AS total_tenants,
                   top.tenant_id, top.events, greatest(0, extract(epoch FROM now() - top.oldest))::bigint AS age,
                   top.attempts, top.next_attempt, top.last_status, top.last_error,
                   coalesce(tn.paused, false) AS paused
            FROM totals t
            LEFT JOIN top ON true
            LEFT JOIN tenants tn ON tn.tenant_id = top.tenant_id
            ORDER BY top.oldest""";

    /** Dead letters per tenant (an index-only count on (tenant_id, id)), total, and the $1 latest tenants. */
    static final String DEAD_LETTERS = """
            WITH per AS (
                SELECT tenant_id, count(*) AS n, max(dead_at) AS last_dead FROM dead_letters GROUP BY tenant_id
            )
            SELECT (SELECT coalesce(sum(n), 0)::bigint FROM per) AS total, top.tenant_id, top.n, top.last_dead,
                   coalesce(tn.paused, false) AS paused
            FROM (SELECT 1) one
            LEFT JOIN (SELECT * FROM per ORDER BY last_dead DESC LIMIT $1) top ON true
            LEFT JOIN tenants tn ON tn.tenant_id = top.tenant_id""";

    /**
     * Every tenant with queued bytes (the queue_depth counters, migration V18: a few rows per tenant, the table the
     * backlog above reads too), its bytes and its quota ($1: the default), for the queue quota ({@link QueuedBytes}).
     * O(tenants with a backlog), like the backlog.
     */
    static final String QUEUED_BYTES = """
            SELECT d.tenant_id, d.bytes, coalesce(tn.max_queued_bytes, $1) AS quota
            FROM (SELECT tenant_id, sum(bytes)::bigint AS bytes FROM queue_depth
                  GROUP BY tenant_id HAVING sum(bytes) > 0) d
            LEFT JOIN tenants tn ON tn.tenant_id = d.tenant_id""";

    private final Pool pool;
    private final QueueConfig config;
    private final QueuedBytes queuedBytes;
    private final BufferClock clock;
    private volatile QueueSnapshot last = QueueSnapshot.NONE;
    /** The monotonic reading when {@link #last} was read; until the first read, when this replica started. */
    private volatile long lastReadNanos;

    public QueueSnapshots(Pool pool, QueueConfig config, QueuedBytes queuedBytes, BufferClock clock) {
        this.pool = pool;
        this.config = config;
        this.queuedBytes = queuedBytes;
        this.clock = clock;
        this.lastReadNanos = clock.nanos();
    }

    /**
     * Seconds since the last successful read, or since this replica started when none has succeeded yet: a database
     * that went away before the first read leaves the figures as unknown as a stale read does, and the age must grow
     * for the stale-snapshot alert to fire.
     */
    public double ageSeconds() {
        return (clock.nanos() - lastReadNanos) / 1e9;
    }

    /** The last snapshot read; {@link QueueSnapshot#NONE} until the first read succeeds. */
    public QueueSnapshot last() {
        return last;
    }

    @Scheduled(every = "${buffer.queue.snapshot-interval:3s}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    Uni<Void> scheduledRefresh() {
        return refresh().onFailure().invoke(f -> LOG.warnf("backlog snapshot failed, keeping the previous one: %s",
                f.getMessage())).onFailure().recoverWithNull().replaceWithVoid();
    }

    /**
     * Reads a new snapshot now (the schedule, and tests that cannot wait for it), and the queued bytes per tenant
     * beside it ({@link QueuedBytes}: what this replica stores from here on is counted on top of the read).
     */
    public Uni<QueueSnapshot> refresh() {
        Tuple limit = Tuple.of(config.snapshotTenants());
        Duration timeout = config.snapshotInterval().compareTo(MIN_TIMEOUT) > 0 ? config.snapshotInterval() : MIN_TIMEOUT;
        return Uni.createFrom().deferred(() -> {
            queuedBytes.reading();
            return Uni.combine().all()
                    .unis(pool.preparedQuery(BACKLOG).execute(limit), pool.preparedQuery(DEAD_LETTERS).execute(limit),
                            pool.preparedQuery(QUEUED_BYTES).execute(Tuple.of(config.maxQueuedBytesPerTenant())))
                    .asTuple();
        })
                .ifNoItem().after(timeout).fail()
                .invoke(rows -> queuedBytes.read(bytesAndQuota(rows.getItem3())))
                .map(rows -> snapshot(Instant.ofEpochMilli(clock.millis()), rows.getItem1(), rows.getItem2()))
                .invoke(s -> {
                    last = s;
                    lastReadNanos = clock.nanos();
                });
    }

    private static Map<String, long[]> bytesAndQuota(RowSet<Row> rows) {
        Map<String, long[]> out = new LinkedHashMap<>();
        for (Row r : rows) {
            out.put(r.getString("tenant_id"), new long[] {r.getLong("bytes"), r.getLong("quota")});
        }
        return out;
    }

    private static QueueSnapshot snapshot(Instant at, RowSet<Row> backlog, RowSet<Row> dead) {
        Map<String, QueueSnapshot.TenantRow> rows = new LinkedHashMap<>();
        long events = 0;
        long age = 0;
        long tenants = 0;
        for (Row r : backlog) {
            events = r.getLong("total_events");
            age = r.getLong("total_age");
            tenants = r.getLong("total_tenants");
            String id = r.getString("tenant_id");
            if (id != null) {
                rows.put(id, new QueueSnapshot.TenantRow(id, r.getLong("events"), r.getLong("age"),
                        r.getInteger("attempts"), r.getOffsetDateTime("next_attempt"), r.getInteger("last_status"),
                        r.getString("last_error"), 0, null, r.getBoolean("paused")));
            }
        }
        long deadLetters = 0;
        List<QueueSnapshot.TenantRow> onlyDead = new ArrayList<>();
        for (Row r : dead) {
            deadLetters = r.getLong("total");
            String id = r.getString("tenant_id");
            if (id == null) {
                continue;
            }
            QueueSnapshot.TenantRow b = rows.get(id);
            if (b != null) {
                rows.put(id, new QueueSnapshot.TenantRow(id, b.events(), b.oldestAgeSeconds(), b.headAttempts(),
                        b.nextAttemptAt(), b.lastStatus(), b.lastError(), r.getLong("n"), r.getOffsetDateTime("last_dead"),
                        b.paused()));
            } else {
                onlyDead.add(new QueueSnapshot.TenantRow(id, 0, 0, 0, null, null, null, r.getLong("n"),
                        r.getOffsetDateTime("last_dead"), r.getBoolean("paused")));
            }
        }
        List<QueueSnapshot.TenantRow> all = new ArrayList<>(rows.values());
        all.addAll(onlyDead);
        return new QueueSnapshot(at, events, age, tenants, deadLetters, List.copyOf(all));
    }
}
