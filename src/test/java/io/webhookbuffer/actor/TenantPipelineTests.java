package io.webhookbuffer.actor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.webhookbuffer.actor.TenantPipeline.Admission;
import io.webhookbuffer.actor.TenantPipeline.Duplicate;
import io.webhookbuffer.actor.TenantPipeline.Joined;
import io.webhookbuffer.actor.TenantPipeline.RateLimited;
import io.webhookbuffer.actor.TenantPipeline.Write;
import io.webhookbuffer.queue.StoreOutcome;
import io.webhookbuffer.ratelimit.LeasedWindow.Slot;

class TenantPipelineTests {

    private static final int LIMIT = 100;
    private static final int WINDOW = 60;

    private final TenantPipeline<String> pipeline = new TenantPipeline<>(1000);

    private Admission admit(String id, String waiter, long now) {
        return pipeline.admit(id, waiter, now, LIMIT, WINDOW);
    }

    private Slot write(String id, long now, int limit, int window) {
        Admission admission = pipeline.admit(id, "first-" + id, now, limit, window);
        Write write = assertInstanceOf(Write.class, admission, id + " should be written");
        return write.slot();
    }

    @Test
    void theFirstCopyIsWrittenWithItsSlotAtNow() {
        Write write = assertInstanceOf(Write.class, admit("evt_1", "w0", 500));
        assertEquals(500, write.slot().second());
        assertEquals(1, pipeline.inFlightCount());
        assertEquals(1, pipeline.windowUsed(500));
    }

    @Test
    void copiesArrivingDuringTheWriteJoinAndAreHandedBackByComplete() {
        assertInstanceOf(Write.class, admit("evt_1", "w0", 500));
        assertInstanceOf(Joined.class, admit("evt_1", "w1", 500));
        assertInstanceOf(Joined.class, admit("evt_1", "w2", 501));
        assertInstanceOf(Write.class, admit("evt_2", "x0", 501), "another id is independent");
        assertEquals(2, pipeline.inFlightCount());

        List<String> waiters = pipeline.complete("evt_1", StoreOutcome.STORED, new Slot(500, false), 502);
        assertEquals(List.of("w1", "w2"), waiters, "the joined copies, in arrival order; not the writer itself");
        assertEquals(1, pipeline.inFlightCount());
        assertEquals(List.of(), pipeline.complete("evt_2", StoreOutcome.STORED, new Slot(501, false), 502),
                "nobody joined evt_2");
        assertEquals(0, pipeline.inFlightCount());
    }

    @Test
    void afterStoredTheIdIsADuplicate() {
        Slot slot = write("evt_1", 500, LIMIT, WINDOW);
        pipeline.complete("evt_1", StoreOutcome.STORED, slot, 500);
        assertInstanceOf(Duplicate.class, admit("evt_1", "w1", 500));
        assertInstanceOf(Duplicate.class, admit("evt_1", "w2", 10_000), "long after the window: still remembered");
        assertEquals(0, pipeline.inFlightCount());
    }

    @Test
    void aFullQueueRefusesNewIdsWithoutASlotButStillAnswersCopies() {
        Slot slot = write("evt_1", 500, LIMIT, WINDOW);
        assertInstanceOf(Joined.class, pipeline.admit("evt_1", "w1", 500, LIMIT, WINDOW, 1, true),
                "a copy of an event being written takes no room");
        pipeline.complete("evt_1", StoreOutcome.STORED, slot, 500);
        assertInstanceOf(Duplicate.class, pipeline.admit("evt_1", "w2", 500, LIMIT, WINDOW, 1, true),
                "a copy of a stored event takes no room");
        assertInstanceOf(TenantPipeline.QueueFull.class, pipeline.admit("evt_2", "x0", 500, LIMIT, WINDOW, 1, true));
        assertEquals(1, pipeline.windowUsed(500), "the refused event took no rate slot");
        assertEquals(0, pipeline.inFlightCount());
    }

    @Test
    void afterADuplicateOutcomeTheIdIsADuplicate() {
        Slot slot = write("evt_1", 500, LIMIT, WINDOW);
        pipeline.complete("evt_1", StoreOutcome.DUPLICATE, slot, 500);
        assertInstanceOf(Duplicate.class, admit("evt_1", "w1", 501));
    }

    @ParameterizedTest
    @EnumSource(value = StoreOutcome.class, names = { "FAILED", "NOT_STORABLE" })
    void afterFailedOrRefusedTheIdCanBeWrittenAgainAndTheWaitersAreReturned(StoreOutcome outcome) {
        Slot slot = write("evt_1", 500, LIMIT, WINDOW);
        assertInstanceOf(Joined.class, admit("evt_1", "w1", 500));
        List<String> waiters = pipeline.complete("evt_1", outcome, slot, 501);
        assertEquals(List.of("w1"), waiters);
        assertEquals(0, pipeline.inFlightCount());

        Write retry = assertInstanceOf(Write.class, admit("evt_1", "w2", 502));
        assertEquals(502, retry.slot().second());
        assertInstanceOf(Joined.class, admit("evt_1", "w3", 502));
        assertEquals(List.of("w3"), pipeline.complete("evt_1", StoreOutcome.STORED, new Slot(502, false), 503));
        assertInstanceOf(Duplicate.class, admit("evt_1", "w4", 503));
    }

    @ParameterizedTest
    @EnumSource(value = StoreOutcome.class, names = { "DUPLICATE", "FAILED", "NOT_STORABLE" })
    void anOutcomeThatStoredNothingGivesTheRateSlotBack(StoreOutcome outcome) {
        Slot slot = write("evt_1", 500, 1, WINDOW);
        assertEquals(1, pipeline.windowUsed(500));
        assertInstanceOf(RateLimited.class, pipeline.admit("evt_2", "w", 500, 1, WINDOW), "the only slot is taken");

        pipeline.complete("evt_1", outcome, slot, 501);
        assertEquals(0, pipeline.windowUsed(501));
        write("evt_2", 501, 1, WINDOW);
    }

    @Test
    void aStoredOutcomeKeepsTheRateSlot() {
        Slot slot = write("evt_1", 500, 1, WINDOW);
        pipeline.complete("evt_1", StoreOutcome.STORED, slot, 501);
        assertEquals(1, pipeline.windowUsed(501));
        assertInstanceOf(RateLimited.class, pipeline.admit("evt_2", "w", 501, 1, WINDOW));
        write("evt_2", 500 + WINDOW, 1, WINDOW);
    }

    @Test
    void rateLimitedCarriesRetryAfterAndLeavesNothingInFlight() {
        Slot slot = write("evt_1", 100, 1, 10);
        pipeline.complete("evt_1", StoreOutcome.STORED, slot, 100);

        RateLimited limited = assertInstanceOf(RateLimited.class, pipeline.admit("evt_2", "w", 103, 1, 10));
        assertEquals(7, limited.retryAfterSeconds());
        assertEquals(0, pipeline.inFlightCount());
        RateLimited again = assertInstanceOf(RateLimited.class, pipeline.admit("evt_2", "w", 109, 1, 10));
        assertEquals(1, again.retryAfterSeconds());
        assertInstanceOf(Write.class, pipeline.admit("evt_2", "w", 110, 1, 10), "a refused id is not remembered");
    }

    @Test
    void duplicatesAndJoinedCopiesNeverConsumeRateSlots() {
        Slot slot = write("evt_1", 100, 2, 10);
        for (int i = 0; i < 50; i++) {
            assertInstanceOf(Joined.class, pipeline.admit("evt_1", "j" + i, 100, 2, 10));
        }
        assertEquals(1, pipeline.windowUsed(100));
        assertEquals(50, pipeline.complete("evt_1", StoreOutcome.STORED, slot, 100).size());
        for (int i = 0; i < 50; i++) {
            assertInstanceOf(Duplicate.class, pipeline.admit("evt_1", "d" + i, 101, 2, 10));
        }
        assertEquals(1, pipeline.windowUsed(101));
        write("evt_2", 101, 2, 10);
    }

    @Test
    void aKnownIdIsADuplicateEvenWhenTheWindowIsFull() {
        Slot slot = write("evt_1", 100, 1, 10);
        pipeline.complete("evt_1", StoreOutcome.STORED, slot, 100);
        assertInstanceOf(RateLimited.class, pipeline.admit("evt_2", "w", 100, 1, 10));
        assertInstanceOf(Duplicate.class, pipeline.admit("evt_1", "w", 100, 1, 10),
                "a provider's retry of an accepted event is answered 200, not 429");
    }

    @Test
    void aChangedLimitTakesEffect() {
        Slot slot = write("a", 100, 1, 60);
        pipeline.complete("a", StoreOutcome.STORED, slot, 100);
        assertInstanceOf(RateLimited.class, pipeline.admit("b", "w", 101, 1, 60));

        write("b", 101, 3, 60);
        write("c", 101, 3, 60);
        write("d", 101, 3, 60);
        assertInstanceOf(RateLimited.class, pipeline.admit("e", "w", 101, 3, 60), "the raised limit of 3 is enforced");

        write("e", 102, 1, 60);
        RateLimited limited = assertInstanceOf(RateLimited.class, pipeline.admit("f", "w", 102, 1, 60),
                "the lowered limit of 1 is enforced");
        assertEquals(60, limited.retryAfterSeconds());
    }

    @Test
    void aChangedWindowTakesEffect() {
        Slot slot = write("a", 100, 1, 60);
        pipeline.complete("a", StoreOutcome.STORED, slot, 100);
        RateLimited longWindow = assertInstanceOf(RateLimited.class, pipeline.admit("b", "w", 105, 1, 60));
        assertEquals(55, longWindow.retryAfterSeconds());

        slot = write("b", 105, 1, 3);
        pipeline.complete("b", StoreOutcome.STORED, slot, 105);
        RateLimited shortWindow = assertInstanceOf(RateLimited.class, pipeline.admit("c", "w", 106, 1, 3));
        assertEquals(2, shortWindow.retryAfterSeconds(), "b (at 105) leaves a 3 s window at 108");
        write("c", 108, 1, 3);
    }

    @Test
    void theRecentIdMemoryIsBounded() {
        TenantPipeline<String> small = new TenantPipeline<>(2);
        for (String id : new String[] { "a", "b", "c" }) {
            assertInstanceOf(Write.class, small.admit(id, "w", 100, LIMIT, WINDOW));
            small.complete(id, StoreOutcome.STORED, new Slot(100, false), 100);
        }
        assertInstanceOf(Duplicate.class, small.admit("b", "w", 100, LIMIT, WINDOW));
        assertInstanceOf(Duplicate.class, small.admit("c", "w", 100, LIMIT, WINDOW));
        assertInstanceOf(Write.class, small.admit("a", "w", 100, LIMIT, WINDOW),
                "the oldest id was forgotten: the database's unique key decides");
    }

    @Test
    void completingAnUnknownIdReturnsNoWaitersAndStillRecordsTheOutcome() {
        assertTrue(pipeline.complete("ghost", StoreOutcome.STORED, new Slot(100, false), 100).isEmpty());
        assertEquals(0, pipeline.windowUsed(100));
        assertInstanceOf(Duplicate.class, admit("ghost", "w", 100));
    }

    @Test
    void overTheLimitASenderThatDoesNotRetryIsWrittenWithoutASlotAndOneThatDoesIsRefused() {
        for (int i = 0; i < 2; i++) {
            assertInstanceOf(Write.class, pipeline.admit("in-" + i, "w", 100, 2, WINDOW, 1, false, true));
        }
        Write over = assertInstanceOf(Write.class, pipeline.admit("over", "w", 100, 2, WINDOW, 1, false, true));
        assertTrue(over.overLimit(), "stored over the limit, and says so");
        assertEquals(null, over.slot(), "it takes no slot: nothing to give back, no lease wanted");
        assertEquals(2, pipeline.windowUsed(100), "the window counts only the events within the limit");
        pipeline.complete("over", StoreOutcome.FAILED, over.slot(), 100);
        assertEquals(2, pipeline.windowUsed(100), "a failed over-limit write gives back nothing");
        assertInstanceOf(RateLimited.class, pipeline.admit("refused", "w", 100, 2, WINDOW, 1, false, false),
                "the same tenant, a sender that retries: 429");
        assertInstanceOf(TenantPipeline.QueueFull.class, pipeline.admit("full", "w", 100, 2, WINDOW, 1, true, true),
                "past the queue quota: refused whatever the sender does");
    }
}
