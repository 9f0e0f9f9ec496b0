package io.webhookbuffer.queue;

import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * The drainer's SQL: the per-tenant lease and every read and write of queue rows on the delivery side. Every write
 * names explicit row ids (never a range: with several writers ids commit out of order) and is fenced by the lease
 * token: it joins drain_leases and changes nothing when the caller no longer holds the tenant. Each delete takes its
 * rows off the tenant's queue_depth count in the same statement (the trigger of migration V12).
 */
@ApplicationScoped
public class DrainStore {

    /**
     * The head every read below shares: the tenant's ({@code $1}) rows after {@code $5}, oldest first, at most
     * {@code $2}, none while it is paused (control plane {@code POST .../pause}).
     */
    private static final String HEAD = "\n    SELECT * FROM event_queue WHERE tenant_id = $1 AND id > $5\n"
            + "      AND " + TenantSql.notPaused("$1") + "\n"
            + "    ORDER BY id LIMIT $2\n";

    /**
     * The head's columns as {@link #head} reads them, from a row source named {@code q} (surrounded by white space,
     * so it can be spliced anywhere in a statement). {@code deliverable_since} is when the row last became
     * deliverable: the latest of its receipt, its replay (the row's own column) and the end of the tenant's last pause
     * or hold (the tenant's column, one probe of the tenants primary key per statement: it names {@code $1}, the
     * tenant, not the row); {@code buffer.delivery.max-age} counts from there. greatest() skips NULLs.
     */
    private static final String HEAD_COLUMNS = " q.id, q.event_id, q.body, q.content_type, q.headers::text AS headers,"
            + " q.received_at, q.attempts, q.next_attempt_at, q.failures, q.isolated_at,"
            + " q.waits, q.trace_parent, greatest(q.received_at, q.deliverable_since,"
            + " (SELECT ds.deliverable_since FROM tenants ds WHERE ds.tenant_id = $1)) AS deliverable_since\n";

    /**
     * Takes the tenant when nobody holds it, the holder's lease expired, or we already hold it, and reads its first
     * rows, in one round trip: a new hold reads from the start of the tenant's range. No rows at all: another live
     * drainer holds the tenant; one row with NULL queue columns: taken, but nothing queued (or the tenant is paused).
     */
    static final String ACQUIRE_AND_HEAD = """
            WITH lease AS (
                INSERT INTO drain_leases (tenant_id, holder, token, expires_at)
                VALUES ($1, $3, nextval('drain_lease_tokens'), now() + $4 * interval '1 millisecond')
                ON CONFLICT (tenant_id) DO UPDATE
                    SET holder = EXCLUDED.holder, token = EXCLUDED.token, expires_at = EXCLUDED.expires_at
                    WHERE drain_leases.expires_at < now() OR drain_leases.holder = EXCLUDED.holder
                RETURNING token
            )
            SELECT lease.token, """ + HEAD_COLUMNS + """
            FROM lease LEFT JOIN LATERAL (""" + HEAD + """
            ) q ON true""";

    static final String RELEASE = "DELETE FROM drain_leases WHERE tenant_id = $1 AND token = $2";

    /**
     * The read from the start of the range that decides a tenant is idle: renews our lease when there are rows, and
     * releases it in the same statement when there are none (or the tenant is paused). No rows at all: the lease was
     * lost; one row with NULL columns: nothing queued, and the lease is gone.
     */
    static final String RENEW_OR_RELEASE = """
            WITH head AS (""" + HEAD + """
            ), renewed AS (
                UPDATE drain_leases SET expires_at = now() + $4 * interval '1 millisecond'
                WHERE tenant_id = $1 AND token = $3 AND EXISTS (SELECT 1 FROM head) RETURNING token
            ), released AS (
                DELETE FROM drain_leases WHERE tenant_id = $1 AND token = $3 AND NOT EXISTS (SELECT 1 FROM head)
                RETURNING token
            )
            SELECT """ + HEAD_COLUMNS + """
            FROM (SELECT token FROM renewed UNION ALL SELECT token FROM released) l
            LEFT JOIN head q ON EXISTS (SELECT 1 FROM renewed)
            ORDER BY q.id""";

    /** Keeps our lease until a wait ends (epoch ms); after that any replica may take the tenant. */
    static final String PARK = """
            UPDATE drain_leases SET expires_at = to_timestamp($3 / 1000.0)
            WHERE tenant_id = $1 AND token = $2""";

    /**
     * Renews our lease and reads the tenant's oldest rows (FIFO, through the (tenant_id, id) primary key) in one
     * round trip. No rows at all means the lease was lost (expired and taken); a lease row with NULL columns means
     * no queued row after {@code $5}.
     *
     * <p>{@code $5} is the drainer's cursor: the highest id it has already removed. Starting the index scan there
     * skips the dead index entries that deleted rows leave at the head of a busy tenant's range until vacuum (measured:
     * 15 ms for a 50-row head read behind 30k deleted rows, against well under 1 ms). A row whose id is below the
     * cursor because it committed late is found when the drainer rewinds the cursor to 0, which it does whenever a
     * read comes back empty and at least every few seconds.
     *
     * <p>A paused tenant (control plane {@code POST .../pause}) reads as empty, whichever replica holds it: the
     * drainer goes idle and releases the lease. A batch already sent when the pause lands still completes.
     */
    static final String RENEW_AND_HEAD = """
            WITH lease AS (
                UPDATE drain_leases SET expires_at = now() + $4 * interval '1 millisecond'
                WHERE tenant_id = $1 AND token = $3 RETURNING token
            )
            SELECT """ + HEAD_COLUMNS + """
            FROM lease LEFT JOIN LATERAL (""" + HEAD + """
            ) q ON true""";

    /**
     * The origin has these rows ({@code $6}): delete exactly them, renew our lease and read the next head after
     * {@code $5} (the batch's last id), in one round trip and one commit. The head is read in the statement's
     * snapshot, before the delete, which is why it starts after the batch. Like {@link #RENEW_AND_HEAD}: no rows means
     * the lease was lost (and nothing was deleted); a lease row with NULL columns means no queued row after {@code $5}.
     */
    static final String DELETE_AND_NEXT = """
            WITH gone AS (
                DELETE FROM event_queue q USING drain_leases l
                WHERE q.tenant_id = $1 AND q.id = ANY($6::bigint[]) AND l.tenant_id = $1 AND l.token = $3
                RETURNING q.id
            ), lease AS (
                UPDATE drain_leases SET expires_at = now() + $4 * interval '1 millisecond'
                WHERE tenant_id = $1 AND token = $3 RETURNING token
            )
            SELECT (SELECT count(*) FROM gone) AS deleted, """ + HEAD_COLUMNS + """
            FROM lease LEFT JOIN LATERAL (""" + HEAD + """
            ) q ON true""";

    /**
     * The batch failed: count a try on each row ({@code $9}: 1, or 0 when the batch never reached the origin: a
     * connection refused), and a wait (the backoff grows with {@code waits}), and set when it may be tried again
     * ({@code $4}, epoch ms on the drainer's clock: the clock it compares due times with). {@code $7} adds to the
     * rows' own failures (1 only for an event that failed alone after the origin had accepted another batch, see
     * delivery.FailurePolicy);
     * {@code $8}, when set, marks the rows as held aside since that moment (epoch ms on the drainer's clock, the clock
     * its evidence of the origin's health is kept on).
     */
    static final String MARK_FAILED = """
            UPDATE event_queue q
            SET attempts = q.attempts + $9, waits = q.waits + 1,
                next_attempt_at = 'epoch'::timestamptz + $4::bigint * interval '1 millisecond',
                last_status = $5, last_error = $6, failures = q.failures + $7,
                isolated_at = coalesce('epoch'::timestamptz + $8::bigint * interval '1 millisecond', q.isolated_at)
            FROM drain_leases l
            WHERE q.tenant_id = $1 AND q.id = ANY($2::bigint[]) AND l.tenant_id = $1 AND l.token = $3""";

    /**
     * The batch failed and is halved at once to find the event that fails: count a try on each row, due as they were
     * (no wait: the halves go now), with the answer as their last error.
     */
    static final String COUNT_TRY = """
            UPDATE event_queue q
            SET attempts = q.attempts + 1, last_status = $4, last_error = $5
            FROM drain_leases l
            WHERE q.tenant_id = $1 AND q.id = ANY($2::bigint[]) AND l.tenant_id = $1 AND l.token = $3""";

    /**
     * Moves rows to dead_letters with a status and reason each, in one statement (nothing lost in between). A move
     * follows a try that carried the rows (a refusal, a failure, a 2xx that rejected them), counted here ({@code $6}:
     * 1, or 0 when that try never reached the origin). The event's trace context goes with it, for a replay.
     */
    static final String DEAD_LETTER = """
            WITH reasons AS (
                SELECT * FROM unnest($2::bigint[], $4::int[], $5::text[]) AS r(id, status, error)
            ), moved AS (
                DELETE FROM event_queue q USING drain_leases l, reasons r
                WHERE q.tenant_id = $1 AND q.id = r.id AND l.tenant_id = $1 AND l.token = $3
                RETURNING q.*, r.status AS dead_status, r.error AS dead_error
            )
            INSERT INTO dead_letters (tenant_id, event_id, body, content_type, headers, received_at, attempts,
                                      last_status, last_error, trace_parent)
            SELECT tenant_id, event_id, body, content_type, headers, received_at, attempts + $6, dead_status, dead_error,
                   trace_parent
            FROM moved""";

    /**
     * Tenants after {@code $2} (in id order) with queued rows that no live lease covers: a loose index scan over the
     * primary key (one probe per distinct tenant, not a scan of the rows), then the lease check. The caller pages
     * through with {@code $2}, so tenants late in the order are reached even when more than {@code $1} wait.
     * Paused tenants are skipped: nothing may be sent for them until they are resumed.
     */
    static final String UNDRAINED_TENANTS = TenantSql.queuedTenantsAfter("$2") + """

            SELECT t.tenant_id FROM t
            LEFT JOIN drain_leases l ON l.tenant_id = t.tenant_id AND l.expires_at > now()
            WHERE t.tenant_id IS NOT NULL AND l.tenant_id IS NULL
              AND %s
            LIMIT $1""".formatted(TenantSql.notPaused("t.tenant_id"));

    /**
     * The tenant's batches are held, not sent (its origin is not allowed now, or it has none): what it waits meanwhile
     * does not count against {@code buffer.delivery.max-age}, so the hold's last look is when its events become
     * deliverable again. Not fenced by the lease: it names the tenant, not its rows, and a later stamp is always right.
     * updated_at does not move (nothing a replica caches changed).
     */
    static final String HELD = "UPDATE tenants SET deliverable_since = now() WHERE tenant_id = $1";

    private final Pool pool;

    public DrainStore(Pool pool) {
        this.pool = pool;
    }

    /** A new hold and its first rows. */
    public record Hold(long token, List<QueuedEvent> head) {
    }

    /** Completes with our token and the tenant's first rows, or null when another live drainer holds the tenant. */
    public Uni<Hold> acquireAndHead(String tenantId, String holder, long ttlMillis, int limit) {
        return pool.preparedQuery(ACQUIRE_AND_HEAD).execute(Tuple.of(tenantId, limit, holder, ttlMillis, 0L))
                .map(rows -> rows.rowCount() == 0 ? null
                        : new Hold(rows.iterator().next().getLong("token"), head(rows)));
    }

    /**
     * Completes with the tenant's first rows, our lease renewed; with an empty list when none is queued, our lease
     * released; with null when our lease was lost.
     */
    public Uni<List<QueuedEvent>> renewOrRelease(String tenantId, long token, long ttlMillis, int limit) {
        return pool.preparedQuery(RENEW_OR_RELEASE).execute(Tuple.of(tenantId, limit, token, ttlMillis, 0L))
                .map(DrainStore::head);
    }

    public Uni<Void> park(String tenantId, long token, long untilEpochMillis) {
        return pool.preparedQuery(PARK).execute(Tuple.of(tenantId, token, untilEpochMillis)).replaceWithVoid();
    }

    public Uni<Void> release(String tenantId, long token) {
        return pool.preparedQuery(RELEASE).execute(Tuple.of(tenantId, token)).replaceWithVoid();
    }

    /** Completes with the oldest rows (empty when none), or with null when our lease was lost. */
    public Uni<List<QueuedEvent>> renewAndHead(String tenantId, long token, long ttlMillis, int limit, long afterId) {
        return pool.preparedQuery(RENEW_AND_HEAD).execute(Tuple.of(tenantId, limit, token, ttlMillis, afterId))
                .map(DrainStore::head);
    }

    /** What {@link #deleteAndNext} did: rows deleted, and the next head (null when the lease was lost). */
    public record Deleted(int deleted, List<QueuedEvent> next) {
    }

    /** Deletes the delivered rows, renews the lease and reads the head after {@code afterId}, in one round trip. */
    public Uni<Deleted> deleteAndNext(String tenantId, long token, Long[] ids, long ttlMillis, int limit,
            long afterId) {
        return pool.preparedQuery(DELETE_AND_NEXT)
                .execute(Tuple.from(List.of(tenantId, limit, token, ttlMillis, afterId, ids)))
                .map(rows -> rows.rowCount() == 0
                        ? new Deleted(0, null)
                        : new Deleted((int) rows.iterator().next().getLong("deleted").longValue(), head(rows)));
    }

    /** Queue rows joined to the lease row: none at all, the lease was lost (null); NULL columns, no row queued. */
    private static List<QueuedEvent> head(RowSet<Row> rows) {
        if (rows.rowCount() == 0) {
            return null;
        }
        List<QueuedEvent> out = new ArrayList<>(rows.rowCount());
        for (Row r : rows) {
            if (r.getValue("id") == null) {
                break; // the lease row joined to no queue row: the queue is empty
            }
            out.add(new QueuedEvent(r.getLong("id"), r.getString("event_id"), r.getBuffer("body").getBytes(),
                    r.getString("content_type"), r.getString("headers"), r.getOffsetDateTime("received_at"),
                    r.getInteger("attempts"), r.getOffsetDateTime("next_attempt_at"), r.getInteger("failures"),
                    epochMillis(r.getOffsetDateTime("isolated_at")), r.getInteger("waits"),
                    epochMillis(r.getOffsetDateTime("deliverable_since")), r.getString("trace_parent")));
        }
        return out;
    }

    /**
     * Counts a failed try on each row and makes them due at {@code dueAtMillis} (see {@link #MARK_FAILED});
     * {@code isolatedAtMillis} null leaves the rows' held-aside mark as it is. Completes with the rows changed (0 when
     * the lease was lost).
     */
    public Uni<Integer> markFailed(String tenantId, long token, Long[] ids, long dueAtMillis, Integer status,
            String error, int ownFailures, Long isolatedAtMillis, int tries) {
        return pool.preparedQuery(MARK_FAILED)
                .execute(Tuple.from(List.of(tenantId, ids, token, dueAtMillis)).addInteger(status).addString(error)
                        .addInteger(ownFailures).addLong(isolatedAtMillis).addInteger(tries))
                .map(RowSet::rowCount);
    }

    /** Counts a try on each row, due as they are (see {@link #COUNT_TRY}); 0 when the lease was lost. */
    public Uni<Integer> countTry(String tenantId, long token, Long[] ids, Integer status, String error) {
        return pool.preparedQuery(COUNT_TRY).execute(Tuple.of(tenantId, ids, token, status, error))
                .map(RowSet::rowCount);
    }

    private static long epochMillis(OffsetDateTime time) {
        return time == null ? 0 : time.toInstant().toEpochMilli();
    }

    public Uni<Integer> deadLetter(String tenantId, long token, Long[] ids, Integer[] statuses, String[] errors,
            int tries) {
        return pool.preparedQuery(DEAD_LETTER).execute(Tuple.of(tenantId, ids, token, statuses, errors, tries))
                .map(rows -> rows.rowCount());
    }

    /** Stamps the tenant as held now (see {@link #HELD}). */
    public Uni<Void> held(String tenantId) {
        return pool.preparedQuery(HELD).execute(Tuple.of(tenantId)).replaceWithVoid();
    }

    public Uni<List<String>> undrainedTenants(int limit, String after) {
        return pool.preparedQuery(UNDRAINED_TENANTS).execute(Tuple.of(limit, after)).map(rows -> {
            List<String> out = new ArrayList<>(rows.rowCount());
            rows.forEach(r -> out.add(r.getString(0)));
            return out;
        });
    }
}
