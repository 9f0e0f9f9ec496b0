package io.webhookbuffer.queue;

import static io.webhookbuffer.testsupport.TestTenants.tenant;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.webhookbuffer.testsupport.Db;
import io.webhookbuffer.testsupport.Signed;
import io.webhookbuffer.testsupport.TestTenants;

/**
 * The group commit keeps its connection between commits, so a pool full of other work (after a start, every tenant
 * seen for the first time loads at once) never stands between an event and its commit.
 */
@QuarkusTest
class GroupCommitConnectionTests {

    @Inject
    Pool pool;

    @Inject
    AgroalDataSource jdbc; // a connection of its own, outside the reactive pool under test

    @ConfigProperty(name = "quarkus.datasource.reactive.max-size")
    int poolSize;

    @Test
    void aCommitDoesNotQueueBehindAPoolFullOfOtherQueries() {
        String t = tenant().provision();
        post(t); // the first commit takes a connection from the pool and keeps it

        // More slow queries than the pool has connections: every pooled connection is busy, one waits in the queue.
        AtomicInteger finished = new AtomicInteger();
        List<Uni<?>> slow = new ArrayList<>();
        for (int i = 0; i < poolSize; i++) {
            slow.add(pool.query("SELECT pg_sleep(3)").execute().invoke(rows -> finished.incrementAndGet()));
        }
        slow.forEach(q -> q.subscribe().with(r -> { }, f -> { }));
        // Every connection the pool can lend is sleeping (the kept one is not the pool's to lend).
        await().atMost(Duration.ofSeconds(2)).until(() -> sleeping() == poolSize - 1);

        post(t);
        assertEquals(0, finished.get(), "the event was committed while every other pooled connection was busy");
        await().atMost(Duration.ofSeconds(10)).until(() -> finished.get() == poolSize); // leave the pool as found
    }

    private int sleeping() {
        return (int) Db.count(jdbc, "SELECT count(*) FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(3)' "
                + "AND state = 'active'");
    }

    private static void post(String t) {
        Signed.webhook(TestTenants.DEFAULT_SECRET, "{\"a\":" + System.nanoTime() + "}").post("/webhook/" + t).then()
                .statusCode(202);
    }
}
