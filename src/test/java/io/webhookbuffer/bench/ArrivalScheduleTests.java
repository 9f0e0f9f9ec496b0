package io.webhookbuffer.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/** The open model's schedule: how many requests are due, and when each one was due (the latency origin). */
class ArrivalScheduleTests {

    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

    @Test
    void aSteadyRateSpacesRequestsEvenlyAndTheFirstIsDueAtOnce() {
        ArrivalSchedule s = ArrivalSchedule.steady(1000);
        assertEquals(1, s.dueBy(0));
        assertEquals(0, s.dueAt(0));
        assertEquals(1_000_000, s.dueAt(1));
        assertEquals(1001, s.dueBy(SECOND));
        assertEquals(SECOND, s.dueAt(1000));
        assertEquals(0, s.dueBy(-1));
    }

    @Test
    void aBurstWindowRaisesTheRateOnlyInsideIt() {
        // 100/s, then 1000/s from 1 s to 2 s, then 100/s again.
        ArrivalSchedule s = new ArrivalSchedule(100, 1000, SECOND, SECOND);
        assertEquals(101, s.dueBy(SECOND));
        assertEquals(1101, s.dueBy(2 * SECOND));
        assertEquals(1201, s.dueBy(3 * SECOND));
        assertEquals(SECOND + 1_000_000, s.dueAt(101));
        assertEquals(2 * SECOND + 10_000_000, s.dueAt(1101));
    }

    @Test
    void dueAtAndDueByAgree() {
        ArrivalSchedule s = new ArrivalSchedule(333, 4444, SECOND / 3, SECOND / 2);
        for (long k = 0; k < 3000; k += 7) {
            long at = s.dueAt(k);
            assertEquals(true, s.dueBy(at + 1) >= k + 1, "request " + k + " is due at " + at);
            assertEquals(true, s.dueBy(at - 2) <= k, "request " + k + " is not due before " + at);
        }
    }

    @Test
    void ratesMustBePositive() {
        assertThrows(IllegalArgumentException.class, () -> ArrivalSchedule.steady(0));
        assertThrows(IllegalArgumentException.class, () -> new ArrivalSchedule(10, 0, 0, SECOND));
    }
}
