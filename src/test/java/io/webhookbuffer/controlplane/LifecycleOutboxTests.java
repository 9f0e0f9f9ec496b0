package io.webhookbuffer.controlplane;

import static io.webhookbuffer.testsupport.TestTenants.tenant;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import io.webhookbuffer.demo.DemoControlPlane;
import io.webhookbuffer.ops.Retention;
import io.webhookbuffer.queue.QueueConfig;
import io.webhookbuffer.testsupport.Db;
import io.webhookbuffer.testsupport.Events;
import io.webhookbuffer.testsupport.FakeOrigin;
import io.webhookbuffer.testsupport.FakeOrigin.Answer;
import io.webhookbuffer.testsupport.InjectControlPlane;
import io.webhookbuffer.testsupport.InjectFakeOrigin;
import io.webhookbuffer.testsupport.Scrape;

/** The lifecycle outbox against the real app, PostgreSQL, fake origin and demo control plane; jobs run on demand. */
@QuarkusTest
@TestProfile(ControlPlaneProfile.class)
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

    @Inject
    Retention retention;

    @Inject
    QueueConfig queue;

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
        for (int i = 0; i <= ControlPlaneProfile.BACKLOG_THRESHOLD; i++) {
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
        assertEquals(ControlPlaneProfile.BACKLOG_THRESHOLD + 1, failing.at("/data/depth").asInt());
    }

    @Test
    void anUnavailableReceiverEndsTheRunCountsAttemptsAndTheNextRunDeliversEverything() {
        deliverAll();
        String prefix = "cap-" + System.nanoTime();
        insert(prefix, 120, 0);
        pool.preparedQuery("""
                INSERT INTO lifecycle_events (dedupe_key, type, tenant_id, occurred_at)
                VALUES ($1 || ':1', 'first_event_accepted', $1, now()) ON CONFLICT (dedupe_key) DO NOTHING""")
                .execute(Tuple.of(prefix)).await().indefinitely();
        assertEquals(120L, count("SELECT count(*) FROM lifecycle_events WHERE tenant_id = $1", prefix));

        plane.answer(503);
        try {
            assertEquals(new LifecycleOutbox.Delivery(0, 0, 50), outbox.deliver().await().atMost(PATIENCE));
            assertEquals(new LifecycleOutbox.Delivery(0, 0, 50), outbox.deliver().await().atMost(PATIENCE));
        } finally {
            plane.answer(200);
        }
        assertEquals(50L, count("SELECT count(*) FROM lifecycle_events WHERE tenant_id = $1 AND attempts = 2", prefix),
                "each failed run counted an attempt on the same oldest 50, and sent nothing after them");
        assertEquals(0, plane.events(prefix).size());

        assertEquals(new LifecycleOutbox.Delivery(120, 0, 0), outbox.deliver().await().atMost(PATIENCE));
        assertEquals(LifecycleOutbox.Delivery.NONE, outbox.deliver().await().atMost(PATIENCE));
        assertEquals(120, plane.events(prefix).size());
        assertEquals(List.of(50, 50, 20), tail(plane.eventBatches(), 3));
        assertEquals(0L, count("SELECT count(*) FROM lifecycle_events WHERE tenant_id = $1 AND delivered_at IS NULL",
                prefix));
    }

    @Test
    void oneRunDeliversTheWholeOutboxInBatchesNotOneBatch() {
        deliverAll();
        String prefix = "many-" + System.nanoTime();
        insert(prefix, 500, 0);
        int batchesBefore = plane.eventBatches().size();

        outbox.run().await().atMost(PATIENCE); // one scheduler tick
        assertEquals(500, plane.events(prefix).size(), "one run sends everything pending");
        List<Integer> sizes = plane.eventBatches().subList(batchesBefore, plane.eventBatches().size());
        assertTrue(sizes.stream().allMatch(n -> n <= LifecycleOutbox.BATCH_SIZE), "batches of at most 50: " + sizes);
        assertEquals(0L, count("SELECT count(*) FROM lifecycle_events WHERE tenant_id = $1 AND delivered_at IS NULL",
                prefix));
    }

    @Test
    void anEventTheControlPlaneRefusesIsSetAsideAndTheEventsBehindItAreDelivered() {
        deliverAll();
        String prefix = "refused-" + System.nanoTime();
        insert(prefix, 120, 30);
        plane.refuse(e -> prefix.equals(e.at("/data/poison").asText()));
        long refusedBefore = plane.stats().get("refusedBatches");
        double countedBefore = count(Scrape.now().value("buffer_lifecycle_refused_total"));
        try {
            outbox.run().await().atMost(PATIENCE);
            assertEquals(119, plane.events(prefix).size(), "every event but the refused one reached the control plane");
            assertTrue(plane.events(prefix).stream().noneMatch(e -> e.path("dedupeKey").asText().equals(prefix + ":30")));
            Row poison = pool.preparedQuery("SELECT * FROM lifecycle_events WHERE dedupe_key = $1")
                    .execute(Tuple.of(prefix + ":30")).await().indefinitely().iterator().next();
            assertTrue(poison.getString("last_error").contains("422"), poison.getString("last_error"));

            long refusedBatches = plane.stats().get("refusedBatches");
            // Halving 50 down to one: one refused POST per level (the half that holds it), never one per event.
            assertTrue(refusedBatches - refusedBefore <= 7, "refused POSTs: " + (refusedBatches - refusedBefore));
            outbox.run().await().atMost(PATIENCE);
            assertEquals(refusedBatches, plane.stats().get("refusedBatches"), "a set-aside event is not sent again");
            assertEquals(1.0, count(Scrape.now().value("buffer_lifecycle_refused_total")) - countedBefore,
                    "buffer_lifecycle_refused_total counts the set-aside event once");
        } finally {
            plane.refuse(e -> false);
        }
    }

    @Test
    void setAsideEventsAreKeptForTheDeadLetterRetentionThenPruned() {
        deliverAll();
        String prefix = "aside-" + System.nanoTime();
        insert(prefix, 1, 1);
        plane.refuse(e -> prefix.equals(e.at("/data/poison").asText()));
        try {
            outbox.run().await().atMost(PATIENCE);
        } finally {
            plane.refuse(e -> false);
        }
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
        retention.purge(now).await().atMost(PATIENCE);
        assertEquals(1L, count("SELECT count(*) FROM lifecycle_events WHERE tenant_id = $1", prefix),
                "kept within buffer.queue.dead-letter-retention");

        pool.preparedQuery("""
                INSERT INTO lifecycle_events (dedupe_key, type, tenant_id, occurred_at)
                VALUES ($1 || ':pending', 'origin_failing', $1, now())""").execute(Tuple.of(prefix)).await().indefinitely();
        retention.purge(now.plus(queue.deadLetterRetention()).plusDays(1)).await().atMost(PATIENCE);
        assertEquals(List.of(prefix + ":pending"), dedupeKeys(prefix),
                "the set-aside event went after the retention; a pending one stays until delivered");
    }

    /** {@code n} undelivered events of the made-up tenant {@code prefix}; the {@code poisonAt}-th (from 1) marked. */
    private static double count(Double value) {
        return value == null ? 0 : value;
    }

    private void insert(String prefix, int n, int poisonAt) {
        pool.preparedQuery("""
                INSERT INTO lifecycle_events (dedupe_key, type, tenant_id, occurred_at, data)
                SELECT $1 || ':' || g, 'origin_failing', $1, now(),
                       CASE WHEN g = $3 THEN jsonb_build_object('poison', $1) ELSE '{}'::jsonb END
                FROM generate_series(1, $2) g ORDER BY g""").execute(Tuple.of(prefix, n, poisonAt)).await().indefinitely();
    }

    private void deliverAll() {
        await().atMost(PATIENCE).until(() -> outbox.deliver().await().atMost(PATIENCE).failed() == 0);
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
