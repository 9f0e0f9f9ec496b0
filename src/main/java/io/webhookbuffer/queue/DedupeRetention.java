package io.webhookbuffer.queue;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * Removes dedupe records older than {@code buffer.dedupe.retention} in small batches.
 *
 * <p>Why batched deletes and not daily partitions dropped whole: the dedupe truth is the unique key on
 * (tenant_id, event_id), and PostgreSQL can only enforce a unique key on a partitioned table when it contains the
 * partition key. Partitioning by day would make the key (tenant_id, event_id, day), and a retry that arrives the
 * day after the original would no longer be caught. Batches of {@code buffer.dedupe.cleanup-batch-size} rows found
 * through the BRIN index on received_at keep every statement short (locks held for milliseconds) and let autovacuum reuse
 * the space, so the table stays at about four days of rows instead of growing.
 */
@ApplicationScoped
public class DedupeRetention {

    private static final Logger LOG = Logger.getLogger(DedupeRetention.class);

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
    private final DedupeConfig config;

    public DedupeRetention(Pool pool, DedupeConfig config) {
        this.pool = pool;
        this.config = config;
    }

    @Scheduled(every = "${buffer.dedupe.cleanup-interval:5m}", delayed = "30s",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    Uni<Void> scheduledCleanup() {
        return purgeOlderThan(OffsetDateTime.now(ZoneOffset.UTC).minus(config.retention()))
                .invoke(n -> {
                    if (n > 0) {
                        LOG.infof("dedupe retention removed %d records older than %s", n, config.retention());
                    }
                })
                .onFailure().invoke(f -> LOG.warnf("dedupe retention failed, will retry next run: %s", f.getMessage()))
                .onFailure().recoverWithNull()
                .replaceWithVoid();
    }

    /** Deletes every dedupe record received before {@code cutoff}, batch by batch; completes with the count. */
    public Uni<Long> purgeOlderThan(OffsetDateTime cutoff) {
        return deleteFrom(cutoff, 0L);
    }

    private Uni<Long> deleteFrom(OffsetDateTime cutoff, long deletedSoFar) {
        int batch = config.cleanupBatchSize();
        return pool.preparedQuery(DELETE_EXPIRED_BATCH).execute(Tuple.of(cutoff, batch))
                .flatMap(rows -> rows.rowCount() < batch
                        ? Uni.createFrom().item(deletedSoFar + rows.rowCount())
                        : deleteFrom(cutoff, deletedSoFar + rows.rowCount()));
    }
}
