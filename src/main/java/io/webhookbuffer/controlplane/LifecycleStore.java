package io.webhookbuffer.controlplane;

import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import io.webhookbuffer.queue.QueueSnapshots;
import io.webhookbuffer.queue.TenantSql;

/**
 * The lifecycle outbox's SQL. Milestones are found by scanning state, never by hooks in the code paths: a milestone
 * is a fact about the tables, and an insert with {@code ON CONFLICT (dedupe_key) DO NOTHING} makes seeing it again
 * harmless. occurredAt is the scan time, so it is accurate to the scan interval.
 */
@ApplicationScoped
public class LifecycleStore {

    /** Scans in one transaction holding this advisory lock, so two replicas never scan at once. */
    static final long SCAN_LOCK = 0x6c6966656379636cL; // "lifecycl"

    /** First accepted, first delivered, first dead-lettered: from the usage buckets of the last {@code $1}. */
    static final String FIRSTS = """
            INSERT INTO lifecycle_events (dedupe_key, type, tenant_id, occurred_at, data)
            SELECT f.type || ':' || f.tenant_id, f.type, f.tenant_id, now(), '{}'::jsonb
            FROM (
                SELECT tenant_id, 'first_event_accepted' AS type FROM usage_buckets
                    WHERE bucket_start >= $1 AND accepted > 0 GROUP BY tenant_id
                UNION ALL
                SELECT tenant_id, 'first_delivery' FROM usage_buckets
                    WHERE bucket_start >= $1 AND delivered > 0 GROUP BY tenant_id
                UNION ALL
                SELECT tenant_id, 'first_dead_letter' FROM usage_buckets
                    WHERE bucket_start >= $1 AND dead_lettered > 0 GROUP BY tenant_id
            ) f
            ORDER BY f.tenant_id, f.type
            ON CONFLICT (dedupe_key) DO NOTHING""";

    /**
     * Opens conditions that hold now and are not open yet, and writes their event: origin_failing (the tenant's
     * oldest pending event, its head, older than {@code $1} ms, tenant not paused) and backlog_high (more than
     * {@code $2} queued). Tenants and depths come from the queue_depth counters and heads from one probe of the
     * (tenant_id, id) primary key each, as in the backlog snapshot ({@link QueueSnapshots#QUEUED_HEADS}): nothing is
     * read per queued event.
     */
    static final String OPEN = QueueSnapshots.QUEUED_HEADS + """
            , holding AS (
                SELECT tenant_id, 'origin_failing' AS condition,
                       jsonb_build_object('oldestPendingAt', oldest, 'depth', events) AS data
                FROM per
                WHERE oldest < now() - $1 * interval '1 millisecond'
                  AND %s
                UNION ALL
                SELECT tenant_id, 'backlog_high', jsonb_build_object('depth', events, 'threshold', $2::bigint)
                FROM per WHERE events > $2
            ), opened AS (
                INSERT INTO lifecycle_conditions (tenant_id, condition, episode, since)
                SELECT h.tenant_id, h.condition, nextval('lifecycle_episodes'), now() FROM holding h
                ON CONFLICT (tenant_id, condition) DO NOTHING
                RETURNING tenant_id, condition, episode
            )
            INSERT INTO lifecycle_events (dedupe_key, type, tenant_id, occurred_at, data)
            SELECT o.condition || ':' || o.tenant_id || ':' || o.episode, o.condition, o.tenant_id, now(), h.data
            FROM opened o JOIN holding h ON h.tenant_id = o.tenant_id AND h.condition = o.condition
            ON CONFLICT (dedupe_key) DO NOTHING""".formatted(TenantSql.notPaused("per.tenant_id"));

    /**
     * Closes open conditions that no longer hold, and writes their recovery event (same episode). Per open condition:
     * the head by one primary-key probe, the depth from the counters ({@link TenantSql#depth}).
     */
    static final String CLOSE = """
            WITH closed AS (
                DELETE FROM lifecycle_conditions c
                WHERE CASE c.condition
                    WHEN 'origin_failing' THEN coalesce((
                        SELECT q.received_at >= now() - $1 * interval '1 millisecond' FROM event_queue q
                        WHERE q.tenant_id = c.tenant_id ORDER BY q.id LIMIT 1), true)
                      OR %s
                    WHEN 'backlog_high' THEN %s <= $2
                    ELSE false END
                RETURNING c.tenant_id, c.condition, c.episode, c.since
            )
            INSERT INTO lifecycle_events (dedupe_key, type, tenant_id, occurred_at, data)
            SELECT CASE c.condition WHEN 'origin_failing' THEN 'origin_recovered' ELSE 'backlog_recovered' END
                       || ':' || c.tenant_id || ':' || c.episode,
                   CASE c.condition WHEN 'origin_failing' THEN 'origin_recovered' ELSE 'backlog_recovered' END,
                   c.tenant_id, now(), jsonb_build_object('since', c.since)
            FROM closed c
            ON CONFLICT (dedupe_key) DO NOTHING""".formatted(TenantSql.paused("c.tenant_id"), TenantSql.depth("c.tenant_id"));

    /**
     * The oldest events still owed to the control plane (neither delivered nor set aside) after id {@code $2}, at most
     * {@code $1}, through the partial index that holds only those (migration V22).
     */
    static final String UNDELIVERED = """
            SELECT id, dedupe_key, type, tenant_id, occurred_at, data::text AS data FROM lifecycle_events
            WHERE delivered_at IS NULL AND refused_at IS NULL AND id > $2 ORDER BY id LIMIT $1""";

    static final String MARK_DELIVERED = "UPDATE lifecycle_events SET delivered_at = now() WHERE id = ANY($1::bigint[])";

    static final String MARK_FAILED = """
            UPDATE lifecycle_events SET attempts = attempts + 1, last_error = $2 WHERE id = ANY($1::bigint[])""";

    /** The control plane refused the event alone: set aside with the reason, never sent again. */
    static final String SET_ASIDE = """
            UPDATE lifecycle_events SET attempts = attempts + 1, last_error = $2, refused_at = now() WHERE id = $1""";

    /**
     * One batch of the retention: events delivered, or set aside (refused by the control plane), before {@code $1},
     * through the partial indexes on delivered_at and refused_at. Never an undelivered one (the outbox still owes it),
     * and never a first: its dedupe key has no episode, so the row is the memory that the first happened, and the next
     * scan of {@link #FIRSTS} would write it again; there are three per tenant at most.
     */
    static final String EXPIRE_BATCH = """
            DELETE FROM lifecycle_events WHERE id IN (
                SELECT id FROM lifecycle_events
                WHERE (delivered_at < $1 OR refused_at < $1)
                  AND type NOT IN ('first_event_accepted', 'first_delivery', 'first_dead_letter')
                LIMIT $2)""";

    /** One outbox row as the control plane receives it. */
    public record LifecycleEvent(long id, String dedupeKey, String type, String tenantId, OffsetDateTime occurredAt,
            JsonObject data) {
    }

    private final Pool pool;

    public LifecycleStore(Pool pool) {
        this.pool = pool;
    }

    /**
     * Runs the scan under a transaction-scoped advisory lock; completes with the number of events written, or -1 when
     * another replica is scanning now.
     */
    public Uni<Integer> scan(OffsetDateTime firstsSince, long failingAfterMillis, long backlogThreshold) {
        return pool.withTransaction(conn -> conn.preparedQuery("SELECT pg_try_advisory_xact_lock($1)")
                .execute(Tuple.of(SCAN_LOCK))
                .flatMap(rows -> rows.iterator().next().getBoolean(0)
                        ? scanLocked(conn, firstsSince, failingAfterMillis, backlogThreshold)
                        : Uni.createFrom().item(-1)));
    }

    private static Uni<Integer> scanLocked(SqlConnection conn, OffsetDateTime firstsSince, long failingAfterMillis,
            long backlogThreshold) {
        Tuple thresholds = Tuple.of(failingAfterMillis, backlogThreshold);
        return conn.preparedQuery(FIRSTS).execute(Tuple.of(firstsSince)).flatMap(firsts -> conn.preparedQuery(CLOSE)
                .execute(thresholds).flatMap(closed -> conn.preparedQuery(OPEN).execute(thresholds)
                        .map(opened -> firsts.rowCount() + closed.rowCount() + opened.rowCount())));
    }

    /** The oldest events owed to the control plane after id {@code afterId}, at most {@code limit}. */
    public Uni<List<LifecycleEvent>> undelivered(long afterId, int limit) {
        return pool.preparedQuery(UNDELIVERED).execute(Tuple.of(limit, afterId)).map(rows -> {
            List<LifecycleEvent> out = new ArrayList<>(rows.rowCount());
            for (Row r : rows) {
                out.add(new LifecycleEvent(r.getLong("id"), r.getString("dedupe_key"), r.getString("type"),
                        r.getString("tenant_id"), r.getOffsetDateTime("occurred_at"), new JsonObject(r.getString("data"))));
            }
            return out;
        });
    }

    /**
     * Deletes at most {@code limit} events delivered or set aside before {@code cutoff}, firsts excepted; completes
     * with how many.
     */
    public Uni<Integer> expireBatch(OffsetDateTime cutoff, int limit) {
        return pool.preparedQuery(EXPIRE_BATCH).execute(Tuple.of(cutoff, limit)).map(rows -> rows.rowCount());
    }

    public Uni<Void> markDelivered(Long[] ids) {
        return pool.preparedQuery(MARK_DELIVERED).execute(Tuple.of(ids)).replaceWithVoid();
    }

    public Uni<Void> markFailed(Long[] ids, String error) {
        return pool.preparedQuery(MARK_FAILED).execute(Tuple.of(ids, error)).replaceWithVoid();
    }

    public Uni<Void> setAside(long id, String reason) {
        return pool.preparedQuery(SET_ASIDE).execute(Tuple.of(id, reason)).replaceWithVoid();
    }
}
