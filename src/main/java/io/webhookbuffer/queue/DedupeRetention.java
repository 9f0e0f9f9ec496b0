package io.webhookbuffer.queue;

import java.time.OffsetDateTime;

import jakarta.enterprise.context.ApplicationScoped;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * The retention of dedupe records ({@code buffer.dedupe.retention}): one batch at a time, run by the retention job
 * (ops.Retention) with the other tables'.
 *
 * <p>Why batched deletes and not daily partitions dropped whole: the dedupe truth is the unique key on
 * (tenant_id, event_id), and PostgreSQL can only enforce a unique key on a partitioned table when it contains the
 * partition key. Partitioning by day would make the key (tenant_id, event_id, day), and a retry that arrives the
 * day after the original would no longer be caught. Batches of 5,000 rows ({@code Retention.BATCH}) found
 * through the BRIN index on received_at keep every statement short (locks held for milliseconds) and let autovacuum reuse
 * the space, so the table stays at about four days of rows instead of growing.
 */
@ApplicationScoped
public class DedupeRetention {

    /**
     * One batch of expired rows, found through the BRIN index on received_at, deleted by key. No ORDER BY: BRIN
     * cannot return rows in order, and every expired row goes anyway; LIMIT keeps each statement short.
     */
    static final String DELETE_EXPIRED_BATCH = """
            DELETE FROM processed_events
            WHERE (tenant_id, event_id) IN (
                SELECT tenant_id, event_id FROM processed_events
                WHERE received_at < $1
                LIMIT $2)""";

    private final Pool pool;

    public DedupeRetention(Pool pool) {
        this.pool = pool;
    }

    /** Deletes at most {@code limit} dedupe records received before {@code cutoff}; completes with how many. */
    public Uni<Integer> deleteBatch(OffsetDateTime cutoff, int limit) {
        return pool.preparedQuery(DELETE_EXPIRED_BATCH).execute(Tuple.of(cutoff, limit)).map(rows -> rows.rowCount());
    }
}
