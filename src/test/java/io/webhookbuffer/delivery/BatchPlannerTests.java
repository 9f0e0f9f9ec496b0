package io.webhookbuffer.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.webhookbuffer.queue.QueuedEvent;

/** Which rows go in the next batch: FIFO up to the first row not due, held events skipped while they wait. */
class BatchPlannerTests {

    private static final long NOW = 1_800_000_000_000L;

    private static QueuedEvent row(long id, long dueAt, long isolatedAt, int bytes) {
        OffsetDateTime received = OffsetDateTime.ofInstant(Instant.ofEpochMilli(NOW - 60_000), ZoneOffset.UTC);
        OffsetDateTime due = OffsetDateTime.ofInstant(Instant.ofEpochMilli(dueAt), ZoneOffset.UTC);
        return new QueuedEvent(id, "e" + id, new byte[bytes], "application/json", "{}", received, 0, due, 0,
                isolatedAt);
    }

    private static List<Long> ids(BatchPlanner.Plan plan) {
        return plan.batch().stream().map(QueuedEvent::id).toList();
    }

    @Test
    void dueRowsGoInOrderUpToTheLimit() {
        List<QueuedEvent> head = List.of(row(1, NOW, 0, 1), row(2, NOW, 0, 1), row(3, NOW, 0, 1));
        assertEquals(List.of(1L, 2L), ids(BatchPlanner.select(head, 2, 1_000, NOW)));
    }

    @Test
    void aRowBackingOffStopsTheBatchAndTheTenantWaitsForIt() {
        List<QueuedEvent> head = List.of(row(1, NOW + 5_000, 0, 1), row(2, NOW, 0, 1));
        BatchPlanner.Plan plan = BatchPlanner.select(head, 50, 1_000, NOW);
        assertTrue(plan.batch().isEmpty());
        assertEquals(NOW + 5_000, plan.waitUntilMillis());
    }

    @Test
    void aHeldEventWaitingIsSkippedAndTheEventsBehindItGo() {
        List<QueuedEvent> head = List.of(row(1, NOW + 5_000, NOW - 1, 1), row(2, NOW, 0, 1), row(3, NOW, 0, 1));
        assertEquals(List.of(2L, 3L), ids(BatchPlanner.select(head, 50, 1_000, NOW)));
    }

    @Test
    void aDueHeldEventGoesAloneAndEndsTheBatchBeforeIt() {
        List<QueuedEvent> heldFirst = List.of(row(1, NOW, NOW - 1, 1), row(2, NOW, 0, 1));
        assertEquals(List.of(1L), ids(BatchPlanner.select(heldFirst, 50, 1_000, NOW)));
        List<QueuedEvent> heldSecond = List.of(row(1, NOW, 0, 1), row(2, NOW, NOW - 1, 1), row(3, NOW, 0, 1));
        assertEquals(List.of(1L), ids(BatchPlanner.select(heldSecond, 50, 1_000, NOW)));
    }

    @Test
    void onlyHeldEventsWaitingMeansWaitingForTheFirstOfThem() {
        List<QueuedEvent> head = List.of(row(1, NOW + 9_000, NOW - 1, 1), row(2, NOW + 3_000, NOW - 1, 1));
        BatchPlanner.Plan plan = BatchPlanner.select(head, 50, 1_000, NOW);
        assertTrue(plan.batch().isEmpty());
        assertEquals(NOW + 3_000, plan.waitUntilMillis());
    }

    @Test
    void theByteCapCutsTheBatchButNeverBelowOneEvent() {
        List<QueuedEvent> head = List.of(row(1, NOW, 0, 800), row(2, NOW, 0, 300), row(3, NOW, 0, 1));
        assertEquals(List.of(1L), ids(BatchPlanner.select(head, 50, 1_000, NOW)));
        assertEquals(List.of(1L), ids(BatchPlanner.select(List.of(row(1, NOW, 0, 5_000)), 50, 1_000, NOW)));
    }
}
