package io.webhookbuffer.queue;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * Keeps the queue_depth counters (migrations V12, V18) small: every {@link #INTERVAL} (30 s), one replica
 * adds the rows that database backends wrote since the last fold (one per backend and tenant, shard = the backend's
 * pid) into the tenant's shard-0 row, and removes shard-0 rows that reached zero. Without it a tenant would keep a row
 * for every backend that ever touched it (connections come and go), and the snapshot would sum them all.
 *
 * <p>Why this is safe beside the writers, which update their own backend's row in the trigger of every statement
 * that inserts or deletes queue rows:
 * <ul>
 * <li>The fold never waits for a lock: it takes the backends' rows {@code FOR UPDATE SKIP LOCKED}, so a row whose
 * writer has not committed yet stays for the next fold, and no lock order between the fold and a writer can
 * deadlock. Each row it took is deleted and its value added to shard 0 in the same statement, so the sum is the same
 * before and after, in every snapshot (the statement commits or rolls back whole).</li>
 * <li>A writer that reaches a row the fold holds waits until the fold commits, then finds the row gone and inserts
 * a new one ({@code ON CONFLICT} re-checks after the wait): its count lands in the new row. The fold commits with
 * {@code synchronous_commit} off, so that wait is the fold's statement and not a disk flush; losing a fold in a crash
 * loses nothing (the rows it removed come back with it), and any later commit flushes the WAL up to itself, the
 * fold's commit record included.</li>
 * <li>Only folds write shard 0 (no backend has pid 0), and folds run one at a time (an advisory lock; a replica that
 * does not get it skips the run), so removing a shard-0 row at zero never races with a change to it.</li>
 * </ul>
 */
@ApplicationScoped
public class QueueDepthFold {

    private static final Logger LOG = Logger.getLogger(QueueDepthFold.class);

    /**
     * Folds run one at a time across replicas, holding this transaction-scoped advisory lock. The TRUNCATE trigger of
     * migration V12 takes it too (as 8170767157620663908), so a fold never commits counts behind a TRUNCATE.
     */
    static final long FOLD_LOCK = 0x7164657074686664L; // "qdepthfd"

    /** Takes the lock (or answers false) and turns off the wait for the disk flush at this transaction's commit. */
    static final String LOCK = "SELECT pg_try_advisory_xact_lock($1) AS locked,"
            + " set_config('synchronous_commit', 'off', true) AS commit_mode";

    /**
     * The backends' rows that nobody holds, removed and added to their tenant's shard-0 row (events and bytes, V18); a
     * tenant's rows that sum to zero leave shard 0 as it is. ORDER BY tenant_id: the shard-0 upserts in one order (only
     * folds take those locks).
     */
    static final String FOLD = """
            WITH taken AS (
                SELECT tenant_id, shard FROM queue_depth WHERE shard <> 0 FOR UPDATE SKIP LOCKED
            ), gone AS (
                DELETE FROM queue_depth d USING taken t WHERE d.tenant_id = t.tenant_id AND d.shard = t.shard
                RETURNING d.tenant_id, d.events, d.bytes
            )
            INSERT INTO queue_depth AS z (tenant_id, shard, events, bytes)
            SELECT tenant_id, 0, sum(events), sum(bytes) FROM gone GROUP BY tenant_id
            HAVING sum(events) <> 0 OR sum(bytes) <> 0 ORDER BY tenant_id
            ON CONFLICT (tenant_id, shard) DO UPDATE SET events = z.events + excluded.events,
                bytes = z.bytes + excluded.bytes""";

    /** Tenants with nothing queued any more have no row left. */
    static final String DROP_EMPTY = "DELETE FROM queue_depth WHERE shard = 0 AND events = 0 AND bytes = 0";

    /**
     * How often the fold runs. Between two folds a tenant has a row per database backend that queued or removed its
     * events, which the snapshot sums; 30 s keeps that to a few rows per tenant while the fold itself (one statement
     * that never waits for a lock) stays negligible. Not a setting: nothing about a deployment calls for another value.
     */
    static final String INTERVAL = "30s";

    private final Pool pool;

    public QueueDepthFold(Pool pool) {
        this.pool = pool;
    }

    @Scheduled(every = INTERVAL, delayed = "5s",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    Uni<Void> scheduledFold() {
        return fold().onFailure().invoke(f -> LOG.warnf("queue depth fold failed, will retry next run: %s",
                f.getMessage())).onFailure().recoverWithNull().replaceWithVoid();
    }

    /** Folds now; completes with false when another replica is folding. */
    public Uni<Boolean> fold() {
        return pool.withTransaction(conn -> conn.preparedQuery(LOCK).execute(Tuple.of(FOLD_LOCK))
                .flatMap(rows -> rows.iterator().next().getBoolean("locked") ? foldLocked(conn)
                        : Uni.createFrom().item(false)));
    }

    private static Uni<Boolean> foldLocked(SqlConnection conn) {
        return conn.query(FOLD).execute().flatMap(folded -> conn.query(DROP_EMPTY).execute()).replaceWith(true);
    }
}
