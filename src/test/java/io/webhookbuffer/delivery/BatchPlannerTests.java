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
                isolatedAt, 0, received.toInstant().toEpochMilli());
    }

    private static QueuedEvent fresh(long id, long receivedAt, int attempts) {
        OffsetDateTime received = OffsetDateTime.ofInstant(Instant.ofEpochMilli(receivedAt), ZoneOffset.UTC);
        return new QueuedEvent(id, "e" + id, new byte[1], "application/json", "{}", received, attempts, received, 0, 0,
                attempts, receivedAt);
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

    @Test
    void aFirstTryThatIsNotFullLingersUntilItsOldestEventIsOldEnough() {
        List<QueuedEvent> head = List.of(fresh(1, NOW - 30, 0), fresh(2, NOW, 0));
        BatchPlanner.Plan plan = BatchPlanner.plan(head, 50, 1_000, 100, NOW);
        assertTrue(plan.batch().isEmpty());
        assertEquals(NOW + 70, plan.waitUntilMillis());
        assertEquals(List.of(1L, 2L), ids(BatchPlanner.plan(head, 50, 1_000, 100, NOW + 70)));
    }

    @Test
    void aFullHeadARetryOrNoLingerGoesAtOnce() {
        List<QueuedEvent> head = List.of(fresh(1, NOW, 0), fresh(2, NOW, 0));
        assertEquals(List.of(1L, 2L), ids(BatchPlanner.plan(head, 2, 1_000, 100, NOW)), "full");
        assertEquals(List.of(1L), ids(BatchPlanner.plan(List.of(fresh(1, NOW, 1)), 50, 1_000, 100, NOW)), "retry");
        assertEquals(List.of(1L, 2L), ids(BatchPlanner.plan(head, 50, 1_000, 0, NOW)), "linger 0");
    }

    @Test
    void aDeliveryRateCutsTheBatchToOneSecondsWorthAndSpacesTheNext() {
        List<QueuedEvent> batch = List.of(fresh(1, NOW, 0), fresh(2, NOW, 0), fresh(3, NOW, 0));
        BatchPlanner.Paced cut = BatchPlanner.pace(batch, 2, NOW);
        assertEquals(2, cut.batch().size());
        assertEquals(NOW + 1_000, cut.paceUntilMillis());
        BatchPlanner.Paced whole = BatchPlanner.pace(batch, 20, NOW);
        assertEquals(3, whole.batch().size());
        assertEquals(NOW + 150, whole.paceUntilMillis(), "3 events at 20/s: 150 ms");
    }

    @Test
    void aRateLimitPaceOfTenPerTenSecondsSendsOneEventASecond() {
        List<QueuedEvent> batch = List.of(fresh(1, NOW, 0), fresh(2, NOW, 0), fresh(3, NOW, 0));
        BatchPlanner.Paced cut = BatchPlanner.pace(batch, 10, 10, NOW);
        assertEquals(1, cut.batch().size(), "one second's worth of 10 per 10 s");
        assertEquals(NOW + 1_000, cut.paceUntilMillis());
        BatchPlanner.Paced slow = BatchPlanner.pace(batch, 1, 60, NOW);
        assertEquals(1, slow.batch().size(), "at least one event, even below one a second");
        assertEquals(NOW + 60_000, slow.paceUntilMillis(), "1 per minute: the next a minute later");
    }
}
