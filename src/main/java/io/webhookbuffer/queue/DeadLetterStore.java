package io.webhookbuffer.queue;

import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * Dead letters for SREs: list (paged by id), replay (back to the queue, attempts reset, original order kept) and
 * purge. A selection is a tenant plus optional explicit ids and an optional dead_at range; each replay or purge
 * statement handles at most {@link #MAX_PER_COMMAND} rows, oldest first, and says whether more remain.
 */
@ApplicationScoped
public class DeadLetterStore {

    public static final int MAX_PER_COMMAND = 10_000;

    /** Which dead letters a command means. {@code ids} empty means "any id"; null bounds mean unbounded. */
    public record Selection(String tenantId, Long[] ids, OffsetDateTime from, OffsetDateTime to) {
    }

    /** One dead letter, without its body. */
    public record DeadLetter(long id, String eventId, OffsetDateTime receivedAt, OffsetDateTime deadAt, int attempts,
            Integer lastStatus, String lastError, String contentType, int bodyBytes) {
    }

    /** The selected rows, oldest first, through dead_letters_tenant_id_idx. */
    private static final String SELECTED = """
            SELECT id FROM dead_letters
            WHERE tenant_id = $1 AND (cardinality($2::bigint[]) = 0 OR id = ANY($2::bigint[]))
              AND dead_at >= coalesce($3::timestamptz, '-infinity') AND dead_at < coalesce($4::timestamptz, 'infinity')
            ORDER BY id LIMIT""" + " " + MAX_PER_COMMAND;

    static final String LIST = """
            SELECT id, event_id, received_at, dead_at, attempts, last_status, last_error, content_type,
                   octet_length(body) AS body_bytes
            FROM dead_letters
            WHERE tenant_id = $1 AND id > $2
              AND dead_at >= coalesce($3::timestamptz, '-infinity') AND dead_at < coalesce($4::timestamptz, 'infinity')
            ORDER BY id LIMIT $5""";

    /**
     * Back to the queue in one statement: the rows leave dead_letters and enter event_queue together, in the order
     * the provider's events were received (new ids are assigned in ORDER BY order), ready now, with attempts reset.
     * They join the end of the tenant's queue, deliverable from now: {@code buffer.delivery.max-age} counts from the
     * replay (received_at, what the origin sees, is kept, and so is trace_parent: the replayed delivery links to the
     * event's ingest span). Like any commit of queue rows, it first takes the tenant's commit lock
     * ({@link CommitSql#LOCK_BUCKET}; the rows leave dead_letters only once it is held, so their ids are drawn after
     * it): a replay that overlapped a commit of the same tenant would otherwise commit ids above rows still to come,
     * and a drainer whose cursor passed them would deliver those rows out of order (docs/delivery.md "Order").
     */
    static final String REPLAY = """
            WITH locked AS MATERIALIZED (
                SELECT pg_advisory_xact_lock(%d, %s) FROM (SELECT $1::text AS tenant_id) t
            ), moved AS (
                DELETE FROM dead_letters WHERE id IN (""".formatted(CommitSql.LOCK_SPACE,
            CommitSql.LOCK_BUCKET) + SELECTED + """
            ) AND EXISTS (SELECT 1 FROM locked) RETURNING *)
            INSERT INTO event_queue (tenant_id, event_id, body, content_type, headers, received_at, next_attempt_at,
                                     deliverable_since, trace_parent)
            SELECT tenant_id, event_id, body, content_type, headers, received_at, now(), now(), trace_parent FROM moved
            ORDER BY received_at, id
            RETURNING id""";

    static final String PURGE = "DELETE FROM dead_letters WHERE id IN (" + SELECTED + ")";

    /**
     * One batch of the retention: dead letters that died before {@code $1}, any tenant, found through
     * dead_letters_dead_at_idx and deleted by id. It names dead_letters only: an event replayed from here is a new
     * row of event_queue, which no retention touches.
     */
    static final String EXPIRE_BATCH = """
            DELETE FROM dead_letters WHERE id IN (SELECT id FROM dead_letters WHERE dead_at < $1 LIMIT $2)""";

    /** One dead letter with its body and kept headers, by primary key within the tenant. */
    static final String GET = """
            SELECT id, event_id, received_at, dead_at, attempts, last_status, last_error, content_type,
                   octet_length(body) AS body_bytes, body, headers::text AS headers
            FROM dead_letters WHERE tenant_id = $1 AND id = $2""";

    /** A dead letter with the bytes the provider sent, for an SRE deciding whether to replay it. */
    public record DeadLetterWithBody(DeadLetter deadLetter, byte[] body, String headersJson) {
    }

    private final Pool pool;

    public DeadLetterStore(Pool pool) {
        this.pool = pool;
    }

    public Uni<List<DeadLetter>> list(String tenantId, long afterId, OffsetDateTime from, OffsetDateTime to, int limit) {
        return pool.preparedQuery(LIST).execute(Tuple.of(tenantId, afterId, from, to, limit)).map(rows -> {
            List<DeadLetter> out = new ArrayList<>(rows.rowCount());
            for (Row r : rows) {
                out.add(toDeadLetter(r));
            }
            return out;
        });
    }

    private static DeadLetter toDeadLetter(Row r) {
        return new DeadLetter(r.getLong("id"), r.getString("event_id"), r.getOffsetDateTime("received_at"),
                r.getOffsetDateTime("dead_at"), r.getInteger("attempts"), r.getInteger("last_status"),
                r.getString("last_error"), r.getString("content_type"), r.getInteger("body_bytes"));
    }

    /** Completes with the dead letter, or null when the tenant has none with that id. */
    public Uni<DeadLetterWithBody> get(String tenantId, long id) {
        return pool.preparedQuery(GET).execute(Tuple.of(tenantId, id)).map(rows -> {
            if (!rows.iterator().hasNext()) {
                return null;
            }
            Row r = rows.iterator().next();
            return new DeadLetterWithBody(toDeadLetter(r), r.getBuffer("body").getBytes(), r.getString("headers"));
        });
    }

    /** Completes with how many rows went back to the queue. */
    public Uni<Integer> replay(Selection s) {
        return pool.preparedQuery(REPLAY).execute(tuple(s)).map(rows -> rows.rowCount());
    }

    /** Completes with how many rows were deleted. */
    public Uni<Integer> purge(Selection s) {
        return pool.preparedQuery(PURGE).execute(tuple(s)).map(rows -> rows.rowCount());
    }

    /** Deletes at most {@code limit} dead letters that died before {@code cutoff}; completes with how many. */
    public Uni<Integer> expireBatch(OffsetDateTime cutoff, int limit) {
        return pool.preparedQuery(EXPIRE_BATCH).execute(Tuple.of(cutoff, limit)).map(rows -> rows.rowCount());
    }

    private static Tuple tuple(Selection s) {
        return Tuple.of(s.tenantId(), s.ids(), s.from(), s.to());
    }
}
