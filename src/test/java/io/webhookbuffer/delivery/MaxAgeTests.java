package io.webhookbuffer.delivery;

import static io.webhookbuffer.testsupport.TestTenants.tenant;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import io.webhookbuffer.testsupport.Db;
import io.webhookbuffer.testsupport.Events;
import io.webhookbuffer.testsupport.FakeOrigin;
import io.webhookbuffer.testsupport.FakeOrigin.Answer;
import io.webhookbuffer.testsupport.InjectFakeOrigin;
import io.webhookbuffer.testsupport.Signed;

/**
 * {@code buffer.delivery.max-age} (72 h, the default) bounds how long the buffer keeps trying an event: it counts from
 * when the event last became deliverable (its receipt, its replay, the resume of its tenant), never the time it waited
 * in a pause or in dead letters. Time is not waited for: the tests move the event's receipt 100 h back, as a pause or
 * a stay in dead letters of that length would leave it, against the real app, PostgreSQL and an HTTP origin.
 */
@QuarkusTest
@TestProfile(DeliveryProfile.class)
class MaxAgeTests {

    private static final Duration PATIENCE = Duration.ofSeconds(20);
    private static final String LONG_AGO = "now() - interval '100 hours'";

    @InjectFakeOrigin
    FakeOrigin origin;

    @Inject
    Pool pool;

    @Test
    void aReplayedDeadLetterOlderThanMaxAgeGetsItsFullRetryTimeOnATransientFailure() {
        String t = tenant().provision();
        AtomicInteger status = new AtomicInteger(400);
        origin.answer(t, batch -> Answer.status(status.get()));
        Events.accept(t, "replayed");
        await().atMost(PATIENCE).until(() -> deadLetters(t) == 1);
        execute("UPDATE dead_letters SET received_at = " + LONG_AGO + " WHERE tenant_id = $1", t);

        status.set(503); // the origin is down when the operator replays
        Signed.command("{}").post("/control/tenants/" + t + "/dead-letters/replay").then().statusCode(200);
        awaitFirstTransientFailure(t);
        assertEquals(0, deadLetters(t), "a replay restarts max-age: one 503 does not dead-letter the event");
        assertEquals(1, Db.queued(pool, t));

        status.set(200);
        await().atMost(PATIENCE).until(() -> Db.queued(pool, t) == 0);
        List<JsonNode> seen = origin.events(t);
        long receivedAt = seen.get(seen.size() - 1).get("receivedAt").asLong();
        assertTrue(receivedAt < System.currentTimeMillis() - Duration.ofHours(99).toMillis(),
                "the origin still sees when the event was received");
        assertEquals(0, deadLetters(t));
    }

    @Test
    void anEventHeldByAPauseLongerThanMaxAgeIsNotDeadLetteredOnItsFirstFailureAfterResume() {
        String t = tenant().provision();
        origin.answer(t, batch -> Answer.status(503));
        Signed.command("").post("/control/tenants/" + t + "/pause").then().statusCode(200);
        Events.accept(t, "paused");
        execute("UPDATE event_queue SET received_at = " + LONG_AGO + " WHERE tenant_id = $1", t);

        Signed.command("").post("/control/tenants/" + t + "/resume").then().statusCode(200);
        awaitFirstTransientFailure(t);
        assertEquals(0, deadLetters(t), "the pause does not count against max-age");
        assertEquals(1, Db.queued(pool, t));

        origin.answer(t, batch -> Answer.ok());
        await().atMost(PATIENCE).until(() -> Db.queued(pool, t) == 0);
        assertTrue(origin.providerIds(t).contains("paused"));
        assertEquals(0, deadLetters(t));
    }

    @Test
    void anEventDeliverableLongerThanMaxAgeIsDeadLetteredOnItsNextFailure() {
        String t = tenant().provision();
        origin.answer(t, batch -> Answer.status(503));
        Events.accept(t, "outage");
        awaitFirstTransientFailure(t);
        assertEquals(0, deadLetters(t));
        // Deliverable since its receipt, and that is now 100 h ago: the outage has outlasted max-age.
        execute("UPDATE event_queue SET received_at = " + LONG_AGO + " WHERE tenant_id = $1", t);
        await().atMost(PATIENCE).until(() -> deadLetters(t) == 1);
        assertEquals(0, Db.queued(pool, t));
        String error = pool.preparedQuery("SELECT last_error FROM dead_letters WHERE tenant_id = $1")
                .execute(Tuple.of(t)).await().indefinitely().iterator().next().getString(0);
        assertTrue(error.contains("max-age"), error);
    }

    /** The queued event has been tried and failed at least once, or it left the queue for dead letters. */
    private void awaitFirstTransientFailure(String t) {
        await().atMost(PATIENCE).until(() -> deadLetters(t) > 0
                || Db.queueRows(pool, t).stream().mapToInt(r -> r.getInteger("attempts")).anyMatch(a -> a >= 1));
    }

    private long deadLetters(String t) {
        Row row = pool.preparedQuery("SELECT count(*) FROM dead_letters WHERE tenant_id = $1").execute(Tuple.of(t))
                .await().indefinitely().iterator().next();
        return row.getLong(0);
    }

    private void execute(String sql, String t) {
        pool.preparedQuery(sql).execute(Tuple.of(t)).await().indefinitely();
    }
}
