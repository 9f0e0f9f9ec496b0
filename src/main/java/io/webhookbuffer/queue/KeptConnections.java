package io.webhookbuffer.queue;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.SqlConnection;

/**
 * Connections kept between group commits, at most one per commit slot: after the first commits a commit never waits
 * in the pool's queue, where a wave of other queries (a thousand tenants seen for the first time after a start, say)
 * would otherwise stand between it and the database. A connection whose commit failed is closed, not kept. Taken and
 * given back through {@link #take} and {@link #keep} only, which hold the bound: the readiness probe borrows kept
 * connections too.
 */
final class KeptConnections {

    private final Pool pool;
    private final int max;
    private final ConcurrentLinkedQueue<SqlConnection> kept = new ConcurrentLinkedQueue<>();
    private final AtomicInteger count = new AtomicInteger();
    private volatile boolean stopping;

    KeptConnections(Pool pool, int max) {
        this.pool = pool;
        this.max = max;
    }

    /** A kept connection, or null when none is kept. */
    SqlConnection take() {
        SqlConnection connection = kept.poll();
        if (connection != null) {
            count.decrementAndGet();
        }
        return connection;
    }

    /** Keeps a connection that just worked, up to one per commit slot; any more go back to the pool. */
    void keep(SqlConnection connection) {
        if (!stopping && count.incrementAndGet() <= max) {
            kept.add(connection);
        } else {
            count.decrementAndGet();
            connection.close();
        }
    }

    /** Closes every kept connection: the next commits take new ones from the pool. */
    void closeAll() {
        SqlConnection connection;
        while ((connection = take()) != null) {
            connection.close();
        }
    }

    /** At shutdown, before the pool closes: closes them all and keeps none from now on. */
    void stop() {
        stopping = true;
        closeAll();
    }

    /**
     * {@code SELECT 1} where the next commit would run: on a kept connection, then through the pool. A kept
     * connection that fails it is closed (held out of the pool until the pool's probe ended, so the pool cannot lend
     * it straight back), and the next commit does not meet it.
     */
    Future<Void> probe() {
        SqlConnection connection = take();
        if (connection == null) {
            return pool.query("SELECT 1").execute().mapEmpty();
        }
        return connection.query("SELECT 1").execute().transform(done -> {
            if (done.succeeded()) {
                keep(connection);
                return Future.succeededFuture();
            }
            return pool.query("SELECT 1").execute().<Void>mapEmpty().andThen(pooled -> connection.close());
        });
    }
}
