package io.webhookbuffer.queue;

import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import io.webhookbuffer.common.EventIds;

/**
 * "Where is my event?" for one tenant, from the rows the buffer keeps anyway: the dedupe record (received when), the
 * queue row (position, attempts, next attempt, last error) and the dead letter. Nothing is written on the ingest or
 * drain path for it, so "delivered" is an inference: the event was accepted and is neither queued nor dead-lettered
 * (a purged dead letter reads the same), and no delivery time is known. An id the provider's signature does not cover
 * is stored bound to its body ({@link EventIds}); asked for the provider's id alone, the finder also matches the
 * stored ids that begin with it and a colon, up to {@link #MAX_MATCHES}.
 *
 * <p>Cost, one statement under {@link #TIMEOUT_MILLIS}: the dedupe record is a primary-key read (a prefix match
 * reads the tenant's dedupe records); the queue and dead-letter tables have no index on the event id (one more btree
 * on the hot insert would cost every event more than this command saves), so a lookup reads the tenant's queued rows
 * and dead letters once each; the position counts the tenant's rows ahead through the (tenant_id, id) index.
 */
@ApplicationScoped
public class EventFinder {

    public static final int MAX_MATCHES = 10;
    /** The statement's bound: a tenant with millions of queued rows answers 503 rather than hold a connection. */
    public static final int TIMEOUT_MILLIS = 5_000;

    /** Where one stored event id is. {@code queue} and {@code deadLetter} are null when it is not there. */
    public record Found(String eventId, String state, OffsetDateTime receivedAt, Queued queue, Dead deadLetter) {
    }

    /** Its queue row: {@code position} 1 is the next to be delivered. */
    public record Queued(long position, int attempts, OffsetDateTime nextAttemptAt, String lastError) {
    }

    /** Its dead letter, by the id the dead-letter commands take. */
    public record Dead(long id, OffsetDateTime deadAt, int attempts, Integer lastStatus, String lastError) {
    }

    /** $1 tenant, $2 the id asked for, $3 whether a bound id may match, $4 the LIKE pattern of a bound id. */
    static final String FIND = """
            WITH asked AS (
                SELECT event_id FROM processed_events
                WHERE tenant_id = $1 AND (event_id = $2 OR ($3 AND event_id LIKE $4))
                UNION
                SELECT event_id FROM event_queue
                WHERE tenant_id = $1 AND (event_id = $2 OR ($3 AND event_id LIKE $4))
                UNION
                SELECT event_id FROM dead_letters
                WHERE tenant_id = $1 AND (event_id = $2 OR ($3 AND event_id LIKE $4))
                LIMIT""" + " " + MAX_MATCHES + """
            ),
            queued AS (
                SELECT DISTINCT ON (q.event_id) q.event_id, q.id, q.received_at, q.attempts, q.next_attempt_at,
                       q.last_error
                FROM event_queue q JOIN asked a ON a.event_id = q.event_id
                WHERE q.tenant_id = $1
                ORDER BY q.event_id, q.id
            ),
            dead AS (
                SELECT DISTINCT ON (d.event_id) d.event_id, d.id, d.received_at, d.dead_at, d.attempts,
                       d.last_status, d.last_error
                FROM dead_letters d JOIN asked a ON a.event_id = d.event_id
                WHERE d.tenant_id = $1
                ORDER BY d.event_id, d.id DESC
            )
            SELECT a.event_id, coalesce(p.received_at, q.received_at, d.received_at) AS received_at,
                   q.id IS NOT NULL AS is_queued, q.attempts AS q_attempts, q.next_attempt_at, q.last_error AS q_error,
                   (SELECT count(*) FROM event_queue ahead WHERE q.id IS NOT NULL AND ahead.tenant_id = $1
                        AND ahead.id < q.id) AS ahead,
                   d.id AS dead_id, d.dead_at, d.attempts AS d_attempts, d.last_status, d.last_error AS d_error
            FROM asked a
            LEFT JOIN processed_events p ON p.tenant_id = $1 AND p.event_id = a.event_id
            LEFT JOIN queued q ON q.event_id = a.event_id
            LEFT JOIN dead d ON d.event_id = a.event_id
            ORDER BY received_at, a.event_id""";

    private final Pool pool;

    public EventFinder(Pool pool) {
        this.pool = pool;
    }

    /**
     * The stored events that answer to the id a provider sent (or to a stored id as the origin received it), oldest
     * first; empty when none does.
     */
    public Uni<List<Found>> find(String tenantId, String providerId) {
        String eventId = EventIds.storable(providerId);
        boolean orBound = EventIds.providerId(eventId).equals(eventId); // asked for a provider's id, not a bound one
        String pattern = likeLiteral(eventId) + ":%";
        return pool.withTransaction(connection -> connection.query("SET LOCAL statement_timeout = " + TIMEOUT_MILLIS)
                .execute()
                .flatMap(ignored -> connection.preparedQuery(FIND).execute(Tuple.of(tenantId, eventId, orBound, pattern)))
                .map(rows -> {
                    List<Found> out = new ArrayList<>(rows.rowCount());
                    for (Row r : rows) {
                        out.add(toFound(r));
                    }
                    return out;
                }));
    }

    private static Found toFound(Row r) {
        Queued queued = r.getBoolean("is_queued")
                ? new Queued(r.getLong("ahead") + 1, r.getInteger("q_attempts"), r.getOffsetDateTime("next_attempt_at"),
                        r.getString("q_error"))
                : null;
        Dead dead = r.getLong("dead_id") == null ? null
                : new Dead(r.getLong("dead_id"), r.getOffsetDateTime("dead_at"), r.getInteger("d_attempts"),
                        r.getInteger("last_status"), r.getString("d_error"));
        String state = queued != null ? "queued" : dead != null ? "dead_lettered" : "delivered";
        return new Found(r.getString("event_id"), state, r.getOffsetDateTime("received_at"), queued, dead);
    }

    /** {@code value} as a LIKE pattern that matches only itself (backslash is LIKE's default escape). */
    static String likeLiteral(String value) {
        return value.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_");
    }
}
