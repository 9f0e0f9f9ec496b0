package io.webhookbuffer.queue;

import static io.webhookbuffer.testsupport.TestTenants.tenant;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;
import java.util.stream.IntStream;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import io.webhookbuffer.delivery.DeliveryProfile;
import io.webhookbuffer.testsupport.Db;
import io.webhookbuffer.testsupport.Events;
import io.webhookbuffer.testsupport.FakeOrigin;
import io.webhookbuffer.testsupport.FakeOrigin.Answer;
import io.webhookbuffer.testsupport.InjectFakeOrigin;
import io.webhookbuffer.testsupport.Signed;

/**
 * The queue_depth counters (migrations V12, V18) say exactly how many rows, and how many body bytes, each tenant has
 * queued, whichever statement
 * wrote them: the group commit, the drainer's deletes and dead-lettering, a dead-letter replay, statements running
 * at the same time on several connections, transactions that roll back, and the fold running beside them. Each check
 * reads the count and the counters in one statement, so they come from one snapshot.
 */
@QuarkusTest
@TestProfile(DeliveryProfile.class)
class QueueDepthTests {

    private static final Duration PATIENCE = Duration.ofSeconds(20);

    /** The tenant's rows and body bytes in event_queue, and what its counters say, in one snapshot. */
    private static final String COUNTED = "SELECT (SELECT count(*) FROM event_queue WHERE tenant_id = $1) AS queued, "
            + TenantSql.depth("$1") + " AS depth, (SELECT count(*) FROM queue_depth WHERE tenant_id = $1) AS counter_rows,"
            + " (SELECT coalesce(sum(octet_length(body)), 0)::bigint FROM event_queue WHERE tenant_id = $1) AS queued_bytes,"
            + " (SELECT coalesce(sum(bytes), 0)::bigint FROM queue_depth WHERE tenant_id = $1) AS counted_bytes";

    @InjectFakeOrigin
    FakeOrigin origin;

    @Inject
    Pool pool;

    @Inject
    QueueDepthFold fold;

    @Test
    void countsFollowIngestDrainDeadLetterReplayAndPurge() {
        String t = tenant().provision();
        String path = "/control/tenants/" + t;
        Signed.command("").post(path + "/pause").then().statusCode(200);
        for (int i = 0; i < 12; i++) {
            Events.accept(t, (i % 4 == 0 ? "bad-" : "ok-") + i);
        }
        assertCounted(t, 12);

        origin.answer(t, batch -> batch.events().stream().anyMatch(e -> FakeOrigin.providerId(e).startsWith("bad-"))
                ? Answer.status(400) : Answer.ok());
        Signed.command("").post(path + "/resume").then().statusCode(200);
        await().atMost(PATIENCE).until(() -> Db.queued(pool, t) == 0 && deadLetterIds(t).size() == 3);
        assertCounted(t, 0);

        Signed.command("").post(path + "/pause").then().statusCode(200);
        List<Long> dead = deadLetterIds(t);
        Signed.command("{\"ids\":[" + dead.get(0) + "," + dead.get(1) + "]}").post(path + "/dead-letters/replay")
                .then().statusCode(200).body("replayed", equalTo(2));
        assertCounted(t, 2);
        Signed.command("{}").delete(path + "/dead-letters").then().statusCode(200).body("purged", equalTo(1));
        assertCounted(t, 2);

        origin.answer(t, batch -> Answer.ok());
        Signed.command("").post(path + "/resume").then().statusCode(200);
        await().atMost(PATIENCE).until(() -> Db.queued(pool, t) == 0);
        assertCounted(t, 0);
        await().atMost(PATIENCE)
                .until(() -> fold.fold().await().indefinitely() && counted(t).getLong("counter_rows") == 0);
    }

    @Test
    void countsStayExactUnderConcurrentWritersRollbacksAndFolds() {
        List<String> tenants = IntStream.range(0, 3).mapToObj(i -> tenant().provision()).toList();
        // Paused, so the drainer leaves their rows to the writers below.
        tenants.forEach(t -> Signed.command("").post("/control/tenants/" + t + "/pause").then().statusCode(200));
        List<Uni<Void>> writers = new ArrayList<>();
        for (int w = 0; w < 3; w++) {
            writers.add(repeat(40, () -> insertAcross(tenants, ThreadLocalRandom.current().nextInt(1, 30))));
        }
        for (int w = 0; w < 2; w++) {
            writers.add(repeat(60, () -> deleteHead(pick(tenants), ThreadLocalRandom.current().nextInt(1, 20))));
        }
        writers.add(repeat(20, () -> pool.withTransaction(conn -> conn.preparedQuery(INSERT_ACROSS)
                .execute(Tuple.of(tenants.toArray(String[]::new), 5))
                .flatMap(rows -> Uni.createFrom().<Void>failure(new IllegalStateException("rolled back"))))
                .onFailure(IllegalStateException.class).recoverWithNull()));
        writers.add(repeat(30, () -> fold.fold().replaceWithVoid()));
        Uni.join().all(writers).andFailFast().await().atMost(Duration.ofSeconds(60));

        for (String t : tenants) {
            Row r = counted(t);
            assertEquals(r.getLong("queued"), r.getLong("depth"), t + " after concurrent writers");
            assertEquals(r.getLong("queued_bytes"), r.getLong("counted_bytes"), t + ": bytes after concurrent writers");
            assertTrue(r.getLong("queued") > 0, "the test left rows to count");
        }
        await().atMost(PATIENCE).until(() -> fold.fold().await().indefinitely());
        for (String t : tenants) {
            Row r = counted(t);
            assertEquals(r.getLong("queued"), r.getLong("depth"), t + " after a fold");
            assertEquals(r.getLong("queued_bytes"), r.getLong("counted_bytes"), t + ": bytes after a fold");
            assertEquals(1, r.getLong("counter_rows"), t + ": one row after a fold with no writer in flight");
        }
        tenants.forEach(t -> pool.preparedQuery("DELETE FROM event_queue WHERE tenant_id = $1").execute(Tuple.of(t))
                .await().indefinitely());
        tenants.forEach(t -> assertCounted(t, 0));
    }

    @Test
    void anUpdateCannotMoveARowToAnotherTenant() {
        String t = tenant().provision();
        Signed.command("").post("/control/tenants/" + t + "/pause").then().statusCode(200);
        Events.accept(t, "stays");
        RuntimeException refused = assertThrows(RuntimeException.class, () -> pool
                .preparedQuery("UPDATE event_queue SET tenant_id = tenant_id || '-moved' WHERE tenant_id = $1")
                .execute(Tuple.of(t)).await().indefinitely());
        assertTrue(refused.getMessage().contains("cannot change"), refused.getMessage());
        pool.preparedQuery("UPDATE event_queue SET attempts = attempts + 1 WHERE tenant_id = $1").execute(Tuple.of(t))
                .await().indefinitely();
        assertCounted(t, 1);
        pool.preparedQuery("DELETE FROM event_queue WHERE tenant_id = $1").execute(Tuple.of(t)).await().indefinitely();
        assertCounted(t, 0);
    }

    /** $2 rows for each tenant in $1, of 1 to 200 bytes, in one statement: the shape of a group commit across tenants. */
    private static final String INSERT_ACROSS = """
            INSERT INTO event_queue (tenant_id, event_id, body, content_type, received_at, next_attempt_at)
            SELECT t, 'c-' || gen_random_uuid(), convert_to(repeat('x', 1 + (random() * 199)::int), 'UTF8'),
                   'application/json', now(), now()
            FROM unnest($1::text[]) t CROSS JOIN generate_series(1, $2)""";

    /** Up to $2 of the tenant's oldest rows that no other statement holds: the shape of the drainer's delete. */
    private static final String DELETE_HEAD = """
            DELETE FROM event_queue WHERE tenant_id = $1 AND id IN (
                SELECT id FROM event_queue WHERE tenant_id = $1 ORDER BY id LIMIT $2 FOR UPDATE SKIP LOCKED)""";

    private Uni<Void> insertAcross(List<String> tenants, int each) {
        return pool.preparedQuery(INSERT_ACROSS).execute(Tuple.of(tenants.toArray(String[]::new), each))
                .replaceWithVoid();
    }

    private Uni<Void> deleteHead(String tenantId, int limit) {
        return pool.preparedQuery(DELETE_HEAD).execute(Tuple.of(tenantId, limit)).replaceWithVoid();
    }

    private static String pick(List<String> tenants) {
        return tenants.get(ThreadLocalRandom.current().nextInt(tenants.size()));
    }

    /** {@code step} run {@code times} times, one after another. */
    private static Uni<Void> repeat(int times, Supplier<Uni<Void>> step) {
        Uni<Void> chain = Uni.createFrom().voidItem();
        for (int i = 0; i < times; i++) {
            chain = chain.flatMap(ignored -> step.get());
        }
        return chain;
    }

    private void assertCounted(String tenantId, long expected) {
        Row r = counted(tenantId);
        assertEquals(expected, r.getLong("queued"), "rows queued for " + tenantId);
        assertEquals(expected, r.getLong("depth"), "the counters of " + tenantId);
        assertEquals(r.getLong("queued_bytes"), r.getLong("counted_bytes"), "the bytes counted for " + tenantId);
        assertTrue(expected == 0 || r.getLong("queued_bytes") > 0, "the test left bytes to count");
    }

    private Row counted(String tenantId) {
        return pool.preparedQuery(COUNTED).execute(Tuple.of(tenantId)).await().indefinitely().iterator().next();
    }

    private List<Long> deadLetterIds(String tenantId) {
        List<Long> ids = new ArrayList<>();
        pool.preparedQuery("SELECT id FROM dead_letters WHERE tenant_id = $1 ORDER BY id").execute(Tuple.of(tenantId))
                .await().indefinitely().forEach(r -> ids.add(r.getLong(0)));
        return ids;
    }
}
