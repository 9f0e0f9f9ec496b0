package io.webhookbuffer.warmup;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.SqlConnection;
import io.webhookbuffer.queue.BatchArrays;
import io.webhookbuffer.queue.CommitSql;
import io.webhookbuffer.queue.EventWriter;
import io.webhookbuffer.queue.IncomingEvent;
import io.webhookbuffer.queue.StoreOutcome;

/**
 * The rehearsal tenant's event writer (in its sinks, {@link Warmup}): the real group-commit statement
 * ({@link CommitSql#INSERT_BATCH}) over batches of the rehearsal's events, each inside a transaction that is rolled back, so
 * the statement, its parameters and the PostgreSQL client's code run as they will for real events while nothing is kept
 * (no queue row, no dedupe row, nothing to deliver). Events that arrive while a batch runs share the next one, as in a
 * group commit. It answers what the statement returned (STORED for a row it inserted, DUPLICATE otherwise), or FAILED
 * when the database failed; the warm-up goes on either way.
 */
final class RolledBackWriter implements EventWriter {

    private static final int MAX_BATCH = 64;

    private record Pending(IncomingEvent event, Consumer<StoreOutcome> callback) {
    }

    private final Pool pool;
    private final ConcurrentLinkedQueue<Pending> pending = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean running = new AtomicBoolean();

    RolledBackWriter(Pool pool) {
        this.pool = pool;
    }

    @Override
    public void write(IncomingEvent event, Consumer<StoreOutcome> callback) {
        pending.add(new Pending(event, callback));
        next();
    }

    private void next() {
        if (pending.isEmpty() || !running.compareAndSet(false, true)) {
            return;
        }
        List<Pending> batch = new ArrayList<>();
        Pending p;
        while (batch.size() < MAX_BATCH && (p = pending.poll()) != null) {
            batch.add(p);
        }
        if (batch.isEmpty()) {
            running.set(false);
            next();
            return;
        }
        pool.getConnection().compose(connection -> rolledBack(connection, batch)
                .andThen(written -> connection.close()))
                .onComplete(done -> {
                    running.set(false);
                    next(); // the next batch leaves before this one is answered, as in GroupCommitWriter
                    Set<String> inserted = done.succeeded() ? done.result() : null;
                    for (Pending q : batch) {
                        q.callback().accept(inserted == null ? StoreOutcome.FAILED
                                : inserted.contains(q.event().eventId()) ? StoreOutcome.STORED : StoreOutcome.DUPLICATE);
                    }
                });
    }

    /** The statement in a transaction that is always rolled back; the event ids it inserted. */
    private static Future<Set<String>> rolledBack(SqlConnection connection, List<Pending> batch) {
        return connection.begin().compose(tx -> connection.preparedQuery(CommitSql.INSERT_BATCH)
                .execute(BatchArrays.of(batch.size(), i -> batch.get(i).event()))
                .compose(rows -> tx.rollback().map(ids(rows)), failed -> tx.rollback()
                        .<Set<String>>transform(rolled -> Future.failedFuture(failed))));
    }

    private static Set<String> ids(RowSet<Row> rows) {
        Set<String> ids = new HashSet<>(rows.rowCount() * 2);
        for (Row row : rows) {
            ids.add(row.getString(1));
        }
        return ids;
    }
}
