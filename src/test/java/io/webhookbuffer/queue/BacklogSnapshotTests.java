package io.webhookbuffer.queue;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.UUID;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * The backlog snapshot reads each tenant's depth and head from the primary key: depth counts every queued row, and
 * the age, attempts and origin answer are the head's (the next row to deliver), not the oldest received_at anywhere
 * in the queue, so a replayed dead letter queued behind the others does not pass for the head of the line.
 */
@QuarkusTest
class BacklogSnapshotTests {

    /** Unknown to the tenants table, so no drainer has an origin to send these rows to. */
    private final String tenant = "snap-" + UUID.randomUUID().toString().substring(0, 8);

    @Inject
    Pool pool;

    @Inject
    QueueSnapshots snapshots;

    @AfterEach
    void removeRows() {
        pool.preparedQuery("DELETE FROM event_queue WHERE tenant_id = $1").execute(Tuple.of(tenant))
                .await().indefinitely();
    }

    @Test
    void depthCountsEveryRowAndAgeAttemptsAndAnswerAreTheHeads() {
        // Queued in this order (ids ascending): the head, attempted twice; a newer event; then a dead letter
        // replayed with its first received_at, a day older, behind them. Twenty years old, so the backlog is among the
        // oldest the snapshot keeps whatever other tests left queued (the provider vectors' events are stamped as
        // far back as 2018).
        Duration headAge = Duration.ofDays(20 * 365);
        insert("head", headAge, 2, 503);
        insert("next", headAge.minusHours(1), 0, null);
        insert("replayed", headAge.plusDays(1), 0, null);

        QueueSnapshot snapshot = snapshots.refresh().await().indefinitely();

        QueueSnapshot.TenantRow row = snapshot.rows().stream().filter(r -> r.tenantId().equals(tenant)).findFirst()
                .orElseThrow(() -> new AssertionError("the old backlog among the oldest: " + snapshot.rows()));
        assertEquals(3, row.events());
        long head = headAge.toSeconds();
        assertTrue(row.oldestAgeSeconds() >= head && row.oldestAgeSeconds() < head + 60,
                "the head's age, not the replayed row's: " + row.oldestAgeSeconds());
        assertEquals(2, row.headAttempts());
        assertEquals(503, row.lastStatus());
        assertTrue(snapshot.events() >= 3 && snapshot.tenants() >= 1, snapshot.toString());
        assertTrue(snapshot.oldestAgeSeconds() >= row.oldestAgeSeconds(), snapshot.toString());
    }

    /**
     * With the default {@code buffer.queue.snapshot-interval}, a backlog that appears right after a snapshot was taken
     * is in the next one within 5 s (the status page and the gauges read the last snapshot). Until the counters the
     * interval was 15 s, because each snapshot counted every queued row.
     */
    @Test
    void aNewBacklogIsInTheSnapshotWithinFiveSecondsByDefault() {
        Instant before = snapshots.last().takenAt();
        await().atMost(Duration.ofSeconds(20)).until(() -> !Objects.equals(snapshots.last().takenAt(), before));
        // Twenty years old, so it is among the oldest backlogs the snapshot keeps whatever other tests left queued.
        insert("fresh", Duration.ofDays(20 * 365), 0, null);
        long start = System.nanoTime();
        await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(50)).until(() -> snapshots.last().rows()
                .stream().anyMatch(r -> r.tenantId().equals(tenant) && r.events() == 1));
        assertTrue(System.nanoTime() - start < Duration.ofSeconds(5).toNanos());
    }

    private void insert(String eventId, Duration age, int attempts, Integer lastStatus) {
        pool.preparedQuery("""
                INSERT INTO event_queue (tenant_id, event_id, body, content_type, received_at, next_attempt_at,
                                         attempts, last_status)
                VALUES ($1, $2, convert_to('{}', 'UTF8'), 'application/json',
                        now() - $3 * interval '1 second', now() + interval '1 hour', $4, $5)""")
                .execute(Tuple.of(tenant, eventId, age.toSeconds(), attempts).addInteger(lastStatus))
                .await().indefinitely();
    }
}
