package io.webhookbuffer.database;

import java.util.List;
import java.util.function.Function;
import java.util.stream.Collector;

import io.vertx.core.AsyncResult;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.pgclient.PgPool;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PrepareOptions;
import io.vertx.sqlclient.PreparedQuery;
import io.vertx.sqlclient.Query;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.SqlResult;
import io.vertx.sqlclient.Tuple;

/**
 * The Vert.x pool, except that a query run on the pool itself ({@code pool.query(sql).execute()},
 * {@code pool.preparedQuery(sql).execute(tuple)}) runs on a connection taken from the pool for it, as {@code pool.withConnection}
 * does, instead of going through the pool's own shortcut for a single command.
 *
 * <p>Why: in vertx-sql-client 4.5.27 (and 4.5.28) that shortcut, {@code SqlConnectionPool.execute}, starts a timer
 * for the connection timeout (30 s, {@code PoolOptions.DEFAULT_CONNECTION_TIMEOUT}; Quarkus has no key for it) and
 * cancels it only when a connection is taken. When taking one fails instead (PostgreSQL refused the connection), the
 * query is failed at once and the timer still fires 30 s later and fails the same promise again: an
 * {@code IllegalStateException: Result is already complete} that Vert.x reports as "Uncaught exception" at ERROR, one
 * for every query issued during an outage, half a minute after it. Leasing through {@code getConnection} has a correct
 * timeout (cancelled on every outcome; on expiry it takes the waiter out of the queue), so behaviour is otherwise the
 * same: the same connections, the same 30 s bound on the wait, the same per-connection statement cache.
 */
@SuppressWarnings("deprecation") // Quarkus 3.33 casts a PgPoolCreator's pool to the deprecated PgPool
final class ConnectionPerQueryPool implements PgPool {

    private final Pool pool;

    ConnectionPerQueryPool(Pool pool) {
        this.pool = pool;
    }

    @Override
    public Query<RowSet<Row>> query(String sql) {
        return new ConnectionQuery<>(connection -> connection.query(sql));
    }

    @Override
    public PreparedQuery<RowSet<Row>> preparedQuery(String sql) {
        return new ConnectionPreparedQuery<>(connection -> connection.preparedQuery(sql));
    }

    @Override
    public PreparedQuery<RowSet<Row>> preparedQuery(String sql, PrepareOptions options) {
        return new ConnectionPreparedQuery<>(connection -> connection.preparedQuery(sql, options));
    }

    @Override
    public Future<SqlConnection> getConnection() {
        return pool.getConnection();
    }

    @Override
    public void getConnection(Handler<AsyncResult<SqlConnection>> handler) {
        pool.getConnection(handler);
    }

    @Override
    public PgPool connectHandler(Handler<SqlConnection> handler) {
        pool.connectHandler(handler);
        return this;
    }

    @Override
    public PgPool connectionProvider(Function<Context, Future<SqlConnection>> provider) {
        pool.connectionProvider(provider);
        return this;
    }

    @Override
    public int size() {
        return pool.size();
    }

    @Override
    public Future<Void> close() {
        return pool.close();
    }

    @Override
    public void close(Handler<AsyncResult<Void>> handler) {
        pool.close(handler);
    }

    /** A query that, each time it runs, takes a connection, runs there and gives the connection back. */
    private class ConnectionQuery<T> implements Query<T> {

        private final Function<SqlConnection, Query<T>> on;

        ConnectionQuery(Function<SqlConnection, Query<T>> on) {
            this.on = on;
        }

        @Override
        public Future<T> execute() {
            return pool.withConnection(connection -> on.apply(connection).execute());
        }

        @Override
        public void execute(Handler<AsyncResult<T>> handler) {
            execute().onComplete(handler);
        }

        @Override
        public <R> Query<SqlResult<R>> collecting(Collector<Row, ?, R> collector) {
            return new ConnectionQuery<>(connection -> on.apply(connection).collecting(collector));
        }

        @Override
        public <U> Query<RowSet<U>> mapping(Function<Row, U> mapper) {
            return new ConnectionQuery<>(connection -> on.apply(connection).mapping(mapper));
        }
    }

    /** The same for a prepared query, with its parameters and batches. */
    private final class ConnectionPreparedQuery<T> extends ConnectionQuery<T> implements PreparedQuery<T> {

        private final Function<SqlConnection, PreparedQuery<T>> on;

        ConnectionPreparedQuery(Function<SqlConnection, PreparedQuery<T>> on) {
            super(on::apply);
            this.on = on;
        }

        @Override
        public Future<T> execute(Tuple tuple) {
            return pool.withConnection(connection -> on.apply(connection).execute(tuple));
        }

        @Override
        public void execute(Tuple tuple, Handler<AsyncResult<T>> handler) {
            execute(tuple).onComplete(handler);
        }

        @Override
        public Future<T> executeBatch(List<Tuple> batch) {
            return pool.withConnection(connection -> on.apply(connection).executeBatch(batch));
        }

        @Override
        public void executeBatch(List<Tuple> batch, Handler<AsyncResult<T>> handler) {
            executeBatch(batch).onComplete(handler);
        }

        @Override
        public <R> PreparedQuery<SqlResult<R>> collecting(Collector<Row, ?, R> collector) {
            return new ConnectionPreparedQuery<>(connection -> on.apply(connection).collecting(collector));
        }

        @Override
        public <U> PreparedQuery<RowSet<U>> mapping(Function<Row, U> mapper) {
            return new ConnectionPreparedQuery<>(connection -> on.apply(connection).mapping(mapper));
        }
    }
}
