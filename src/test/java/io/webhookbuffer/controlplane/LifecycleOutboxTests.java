package io.webhookbuffer.controlplane;

import static io.webhookbuffer.testsupport.TestTenants.tenant;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import io.webhookbuffer.demo.DemoControlPlane;
import io.webhookbuffer.testsupport.Db;
import io.webhookbuffer.testsupport.Events;
import io.webhookbuffer.testsupport.FakeOrigin;
import io.webhookbuffer.testsupport.FakeOrigin.Answer;
import io.webhookbuffer.testsupport.InjectControlPlane;
import io.webhookbuffer.testsupport.InjectFakeOrigin;

/** The lifecycle outbox against the real app, PostgreSQL, fake origin and demo control plane; jobs run on demand. */
@QuarkusTest
@TestProfile(SeamProfile.class)
class LifecycleOutboxTests {

    private static final Duration PATIENCE = Duration.ofSeconds(30);

    @InjectControlPlane
    DemoControlPlane plane;

    @InjectFakeOrigin
    FakeOrigin origin;

    @Inject
    LifecycleOutbox outbox;

    @Inject
    Pool pool;

    @Test
    void firstsAreDetectedOnceAndDeliveredOnce() {
        String t = tenant().provision();
        origin.answer(t, batch -> FakeOrigin.providerId(batch.events().get(0)).equals("poison")
                ? Answer.status(400) // refused alone: a dead letter
                : Answer.ok());
        Events.accept(t, "ok-1");
        await().atMost(PATIENCE).until(() -> origin.providerIds(t).contains("ok-1"));
        Events.accept(t, "poison");
        await().atMost(PATIENCE).until(() -> Db.queued(pool, t) == 0);

        outbox.run().await().atMost(PATIENCE);
        outbox.run().await().atMost(PATIENCE); // seen again: deduplicated on dedupeKey
        assertEquals(List.of("first_event_accepted:" + t, "first_delivery:" + t, "first_dead_letter:" + t).stream()
                .sorted().toList(), dedupeKeys(t));
        deliverAll();
        List<String> types = plane.events(t).stream().map(e -> e.path("type").asText()).sorted().toList();
        assertEquals(List.of("first_dead_letter", "first_delivery", "first_event_accepted"), types);
        JsonNode event = plane.events(t).get(0);
        for (String field : List.of("id", "dedupeKey", "type", "tenantId", "occurredAt", "data")) {
            assertTrue(event.has(field), "event has " + field);
        }
        assertEquals(0L, plane.stats().get("duplicateEvents"), "each event was sent once");
    }

    @Test
    void aFailingOriginAndAHighBacklogOpenAndRecover() {
        String t = tenant().provision();
        origin.answer(t, batch -> Answer.status(503));
        for (int i = 0; i <= SeamProfile.BACKLOG_THRESHOLD; i++) {
            Events.accept(t, "held-" + i);
        }
        await().atMost(PATIENCE).until(() -> {
            outbox.scan().await().atMost(PATIENCE);
            return dedupeKeys(t).stream().anyMatch(k -> k.startsWith("origin_failing:"));
        });
        outbox.scan().await().atMost(PATIENCE);
        List<String> open = dedupeKeys(t).stream().filter(k -> !k.startsWith("first_")).toList();
        assertEquals(2, open.size(), "origin_failing and backlog_high, each once: " + open);
        assertTrue(open.stream().anyMatch(k -> k.startsWith("backlog_high:" + t + ":")));

        origin.answer(t, batch -> Answer.ok());
        await().atMost(PATIENCE).until(() -> Db.queued(pool, t) == 0);
        outbox.scan().await().atMost(PATIENCE);
        List<String> keys = dedupeKeys(t);
        assertTrue(keys.stream().anyMatch(k -> k.startsWith("origin_recovered:" + t + ":")), keys.toString());
        assertTrue(keys.stream().anyMatch(k -> k.startsWith("backlog_recovered:" + t + ":")), keys.toString());
        deliverAll();
        JsonNode failing = plane.events(t).stream().filter(e -> e.path("type").asText().equals("origin_failing"))
                .findFirst().orElseThrow();
        assertEquals(SeamProfile.BACKLOG_THRESHOLD + 1, failing.at("/data/depth").asInt());
    }

    @Test
    void deliveryIsCappedPerRunCountsAttemptsAndResumesWhenTheReceiverRecovers() {
        deliverAll();
        String prefix = "cap-" + System.nanoTime();
        pool.preparedQuery("""
                INSERT INTO lifecycle_events (dedupe_key, type, tenant_id, occurred_at)
                SELECT $1 || ':' || n, 'first_event_accepted', $1, now() FROM generate_series(1, 120) n""")
                .execute(Tuple.of(prefix)).await().indefinitely();
        pool.preparedQuery("""
                INSERT INTO lifecycle_events (dedupe_key, type, tenant_id, occurred_at)
                VALUES ($1 || ':1', 'first_event_accepted', $1, now()) ON CONFLICT (dedupe_key) DO NOTHING""")
                .execute(Tuple.of(prefix)).await().indefinitely();
        assertEquals(120L, count("SELECT count(*) FROM lifecycle_events WHERE tenant_id = $1", prefix));

        plane.answer(503);
        try {
            assertEquals(-50, outbox.deliver().await().atMost(PATIENCE));
            assertEquals(-50, outbox.deliver().await().atMost(PATIENCE));
        } finally {
            plane.answer(200);
        }
        assertEquals(50L, count("SELECT count(*) FROM lifecycle_events WHERE tenant_id = $1 AND attempts = 2", prefix),
                "each failed run counted an attempt on the same oldest 50");
        assertEquals(0, plane.events(prefix).size());

        assertEquals(50, outbox.deliver().await().atMost(PATIENCE));
        assertEquals(50, outbox.deliver().await().atMost(PATIENCE));
        assertEquals(20, outbox.deliver().await().atMost(PATIENCE));
        assertEquals(0, outbox.deliver().await().atMost(PATIENCE));
        assertEquals(120, plane.events(prefix).size());
        assertEquals(List.of(50, 50, 20), tail(plane.eventBatches(), 3));
        assertEquals(0L, count("SELECT count(*) FROM lifecycle_events WHERE tenant_id = $1 AND delivered_at IS NULL",
                prefix));
    }

    private void deliverAll() {
        await().atMost(PATIENCE).until(() -> outbox.deliver().await().atMost(PATIENCE) == 0);
    }

    private List<String> dedupeKeys(String tenantId) {
        var rows = pool.preparedQuery("SELECT dedupe_key FROM lifecycle_events WHERE tenant_id = $1 ORDER BY dedupe_key")
                .execute(Tuple.of(tenantId)).await().indefinitely();
        List<String> out = new ArrayList<>();
        rows.forEach(r -> out.add(r.getString(0)));
        return out;
    }

    private long count(String sql, String arg) {
        return pool.preparedQuery(sql).execute(Tuple.of(arg)).await().indefinitely().iterator().next().getLong(0);
    }

    private static List<Integer> tail(List<Integer> list, int n) {
        return list.subList(Math.max(0, list.size() - n), list.size());
    }
}
