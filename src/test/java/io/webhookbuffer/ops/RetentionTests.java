package io.webhookbuffer.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import io.webhookbuffer.queue.DedupeConfig;
import io.webhookbuffer.queue.QueueConfig;
import io.webhookbuffer.testsupport.Db;
import io.webhookbuffer.usage.BillingPeriod;

/**
 * Every table the service writes has a retention (one job, {@link Retention}): old rows go, in batches; young rows,
 * queued events, undelivered lifecycle events and the lifecycle firsts stay. Each test names its own tenants, and
 * the job is run on demand at a chosen "now".
 */
@QuarkusTest
class RetentionTests {

    @Inject
    Pool pool;

    @Inject
    Retention retention;

    @Inject
    DedupeConfig dedupe;

    @Inject
    QueueConfig queue;

    private final String old = "ret-old-" + UUID.randomUUID().toString().substring(0, 8);
    private final String young = "ret-new-" + UUID.randomUUID().toString().substring(0, 8);

    @AfterEach
    void removeWhatTheTestLeft() {
        for (String table : List.of("event_queue", "dead_letters", "usage_buckets", "lifecycle_events")) {
            pool.preparedQuery("DELETE FROM " + table + " WHERE tenant_id = ANY($1)")
                    .execute(Tuple.of((Object) new String[] {old, young})).await().indefinitely();
        }
    }

    @Test
    void dedupeRecordsOlderThanTheRetentionGoAcrossSeveralBatches() {
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
        int oldRows = Retention.BATCH * 2 + 17; // more than two batches
        insertDedupe(old, oldRows, now.minus(dedupe.retention()).minusHours(1));
        insertDedupe(young, 25, now.minus(dedupe.retention()).plusHours(1));

        Map<String, Long> removed = retention.purge(now).await().indefinitely();

        assertEquals(0, Db.dedupeRows(pool, old));
        assertEquals(25, Db.dedupeRows(pool, young));
        assertTrue(removed.get("dedupe records") >= oldRows, "at least our old rows went: " + removed);
    }

    @Test
    void deadLettersPastTheirRetentionGoAndTheQueueIsNotTouched() {
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
        OffsetDateTime expired = now.minus(queue.deadLetterRetention()).minusMinutes(1);
        insertDeadLetters(old, 3, expired);
        insertDeadLetters(young, 2, now.minus(queue.deadLetterRetention()).plusHours(1));
        // An event of the same tenant, received before the cutoff and still queued (a replayed dead letter, say).
        pool.preparedQuery("""
                INSERT INTO event_queue (tenant_id, event_id, body, content_type, headers, received_at, next_attempt_at)
                VALUES ($1, 'dl-1', '\\x7b7d'::bytea, 'application/json', '{}'::jsonb, $2, now() + interval '1 day')""")
                .execute(Tuple.of(old, expired)).await().indefinitely();

        Map<String, Long> removed = retention.purge(now).await().indefinitely();

        assertEquals(0, count("dead_letters", old));
        assertEquals(2, count("dead_letters", young));
        assertEquals(1, Db.queued(pool, old), "the queued event stays");
        assertTrue(removed.get("dead letters") >= 3, "at least our old dead letters went: " + removed);
    }

    @Test
    void usageBucketsOlderThanThePreviousBillingPeriodGo() {
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC).withMinute(0).withSecond(0).withNano(0);
        OffsetDateTime beyondPrevious = now.minus(BillingPeriod.LONGEST.multipliedBy(2)).minusHours(1);
        insertUsage(old, beyondPrevious);
        insertUsage(old, beyondPrevious.minusDays(100));
        insertUsage(young, now.minus(BillingPeriod.LONGEST).minusDays(10)); // in the previous period: kept
        insertUsage(young, now); // the current period

        Map<String, Long> removed = retention.purge(now).await().indefinitely();

        assertEquals(0, count("usage_buckets", old));
        assertEquals(2, count("usage_buckets", young));
        assertTrue(removed.get("usage buckets") >= 2, "at least our old buckets went: " + removed);
    }

    @Test
    void deliveredLifecycleEventsGoOnceOldButTheOutboxAndTheFirstsStay() {
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
        OffsetDateTime expired = now.minus(queue.deadLetterRetention()).minusHours(1);
        insertLifecycle(old, "origin_failing:" + old + ":1", "origin_failing", expired, expired);
        insertLifecycle(old, "origin_recovered:" + old + ":1", "origin_recovered", expired, expired);
        // Never delivered, however old: the outbox still owes them to the control plane.
        insertLifecycle(old, "backlog_high:" + old + ":2", "backlog_high", expired, null);
        // A first is the memory that it happened: gone, the next scan would announce it again.
        insertLifecycle(old, "first_event_accepted:" + old, "first_event_accepted", expired, expired);
        insertLifecycle(young, "origin_failing:" + young + ":3", "origin_failing", expired, now.minusDays(1));

        Map<String, Long> removed = retention.purge(now).await().indefinitely();

        assertEquals(List.of("backlog_high", "first_event_accepted"), types(old));
        assertEquals(List.of("origin_failing"), types(young));
        assertTrue(removed.get("lifecycle events") >= 2, "at least our two old delivered events went: " + removed);
    }

    private void insertDedupe(String tenant, int n, OffsetDateTime receivedAt) {
        pool.preparedQuery("""
                INSERT INTO processed_events (tenant_id, event_id, received_at)
                SELECT $1, 'e-' || g, $2 FROM generate_series(1, $3) g""")
                .execute(Tuple.of(tenant, receivedAt, n)).await().indefinitely();
    }

    private void insertDeadLetters(String tenant, int n, OffsetDateTime deadAt) {
        pool.preparedQuery("""
                INSERT INTO dead_letters (tenant_id, event_id, body, content_type, received_at, attempts, dead_at)
                SELECT $1, 'dl-' || g, '\\x7b7d'::bytea, 'application/json', $2, 1, $2 FROM generate_series(1, $3) g""")
                .execute(Tuple.of(tenant, deadAt, n)).await().indefinitely();
    }

    private void insertUsage(String tenant, OffsetDateTime hour) {
        pool.preparedQuery("INSERT INTO usage_buckets (tenant_id, bucket_start, accepted) VALUES ($1, $2, 1)")
                .execute(Tuple.of(tenant, hour)).await().indefinitely();
    }

    private void insertLifecycle(String tenant, String key, String type, OffsetDateTime occurredAt,
            OffsetDateTime deliveredAt) {
        pool.preparedQuery("""
                INSERT INTO lifecycle_events (dedupe_key, type, tenant_id, occurred_at, delivered_at)
                VALUES ($1, $2, $3, $4, $5)""")
                .execute(Tuple.of(key, type, tenant, occurredAt, deliveredAt)).await().indefinitely();
    }

    private long count(String table, String tenant) {
        return pool.preparedQuery("SELECT count(*) FROM " + table + " WHERE tenant_id = $1").execute(Tuple.of(tenant))
                .await().indefinitely().iterator().next().getLong(0);
    }

    private List<String> types(String tenant) {
        List<String> out = new ArrayList<>();
        for (Row r : pool.preparedQuery("SELECT type FROM lifecycle_events WHERE tenant_id = $1 ORDER BY type")
                .execute(Tuple.of(tenant)).await().indefinitely()) {
            out.add(r.getString(0));
        }
        return out;
    }
}
