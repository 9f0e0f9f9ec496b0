package io.webhookbuffer.database;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import io.vertx.sqlclient.Tuple;

/**
 * Why {@link ConnectionPerQueryPool} exists, on a pool whose connection timeout is 1 s instead of the 30 s default: a
 * query issued while PostgreSQL refuses connections fails once, and the pool's connection-timeout timer does not fail
 * it a second time when it fires (Vert.x reports that as an uncaught {@code IllegalStateException}, which Quarkus logs
 * at ERROR after every outage). The raw pool's shortcut still does so; when it no longer does, this wrapper can go.
 * {@code DatabaseOutageTests} checks the same through the application, which uses this pool ({@link DatabasePool}).
 */
class ConnectionPerQueryPoolTests {

    private static final int CONNECTION_TIMEOUT_SECONDS = 1;

    private final List<Throwable> uncaught = new CopyOnWriteArrayList<>();
    private Vertx vertx;
    private Pool raw;

    @BeforeEach
    void refusingDatabase() throws IOException {
        vertx = Vertx.vertx();
        vertx.exceptionHandler(uncaught::add);
        int port;
        try (ServerSocket closed = new ServerSocket(0)) {
            port = closed.getLocalPort(); // nothing listens there once closed: every connection is refused
        }
        raw = PgBuilder.pool()
                .with(new PoolOptions().setConnectionTimeout(CONNECTION_TIMEOUT_SECONDS)
                        .setConnectionTimeoutUnit(TimeUnit.SECONDS))
                .connectingTo(new PgConnectOptions().setHost("127.0.0.1").setPort(port).setUser("nobody")
                        .setDatabase("nothing"))
                .using(vertx).build();
    }

    @AfterEach
    void close() {
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    @Test
    void aQueryDuringAnOutageFailsOnceAndNothingFiresAfterTheConnectionTimeout() {
        Pool pool = new ConnectionPerQueryPool(raw);
        assertTrue(failed(pool.query("SELECT 1").execute()), "refused: the query fails");
        assertTrue(failed(pool.preparedQuery("SELECT $1").execute(Tuple.of(1))), "and so does a prepared one");

        await().during(Duration.ofSeconds(CONNECTION_TIMEOUT_SECONDS).plusMillis(1_000))
                .atMost(Duration.ofSeconds(CONNECTION_TIMEOUT_SECONDS + 5))
                .untilAsserted(() -> assertEquals(List.of(), uncaught, "nothing reported after the connection timeout"));
    }

    @Test
    void theRawPoolsShortcutFailsTheSameQueryAgainWhenItsTimerFires() {
        assertTrue(failed(raw.query("SELECT 1").execute()), "refused: the query fails");

        await().atMost(Duration.ofSeconds(CONNECTION_TIMEOUT_SECONDS + 5)).until(() -> !uncaught.isEmpty());
        assertTrue(uncaught.get(0) instanceof IllegalStateException, uncaught.toString());
    }

    private static boolean failed(Future<?> query) {
        await().atMost(Duration.ofSeconds(5)).until(query::isComplete);
        return query.failed();
    }
}
