package io.webhookbuffer.ratelimit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class SlidingWindowLimiterTests {

    @ParameterizedTest
    @ValueSource(ints = { 1, 2, 3, 10, 100 })
    void exactlyLimitAcquisitionsPassInOneSecondThenTheNextIsRefused(int limit) {
        SlidingWindowLimiter limiter = new SlidingWindowLimiter(limit, 10);
        for (int i = 0; i < limit; i++) {
            assertEquals(0, limiter.tryAcquire(100), "acquisition " + (i + 1) + " of " + limit);
        }
        assertEquals(limit, limiter.used(100));
        assertEquals(10, limiter.tryAcquire(100), "the oldest event (at 100) leaves the window at 110");
        assertEquals(limit, limiter.used(100), "a refused acquisition takes no slot");
    }

    @Test
    void exactlyLimitAcquisitionsPassWhenSpreadOverTheWindow() {
        SlidingWindowLimiter limiter = new SlidingWindowLimiter(5, 10);
        for (long s = 100; s < 105; s++) {
            assertEquals(0, limiter.tryAcquire(s));
        }
        assertEquals(1, limiter.tryAcquire(109), "the event at 100 is still counted at 109");
        assertEquals(0, limiter.tryAcquire(110), "the event at 100 left the window at 110");
        assertEquals(1, limiter.tryAcquire(110), "the event at 101 leaves at 111");
        assertEquals(5, limiter.used(110));
    }

    @Test
    void retryAfterIsTheWholeSecondsUntilTheOldestCountedEventLeaves() {
        SlidingWindowLimiter limiter = new SlidingWindowLimiter(3, 10);
        assertEquals(0, limiter.tryAcquire(100));
        assertEquals(0, limiter.tryAcquire(104));
        assertEquals(0, limiter.tryAcquire(105));

        assertEquals(5, limiter.tryAcquire(105));
        assertEquals(4, limiter.tryAcquire(106));
        assertEquals(3, limiter.tryAcquire(107));
        assertEquals(2, limiter.tryAcquire(108));
        assertEquals(1, limiter.tryAcquire(109));
        assertEquals(3, limiter.used(109));

        assertEquals(0, limiter.tryAcquire(110), "the event at 100 left the window: a slot is free");
        assertEquals(4, limiter.tryAcquire(110), "now the oldest counted event is the one at 104");
        assertEquals(0, limiter.tryAcquire(114));
        assertEquals(1, limiter.tryAcquire(114), "105 is now the oldest, it leaves at 115");
    }

    @Test
    void retryAfterIsNeverBelowOne() {
        SlidingWindowLimiter oneSecond = new SlidingWindowLimiter(1, 1);
        assertEquals(0, oneSecond.tryAcquire(50));
        assertEquals(1, oneSecond.tryAcquire(50));

        SlidingWindowLimiter limiter = new SlidingWindowLimiter(2, 7);
        assertEquals(0, limiter.tryAcquire(0));
        assertEquals(0, limiter.tryAcquire(0));
        for (long now = 0; now < 7; now++) {
            long retry = limiter.tryAcquire(now);
            assertTrue(retry >= 1, "retry " + retry + " at " + now);
            assertEquals(7 - now, retry);
        }
        assertEquals(0, limiter.tryAcquire(7));
    }

    @Test
    void releaseGivesTheSlotBackWhileItIsInTheWindow() {
        SlidingWindowLimiter limiter = new SlidingWindowLimiter(2, 10);
        assertEquals(0, limiter.tryAcquire(100));
        assertEquals(0, limiter.tryAcquire(103));
        assertEquals(7, limiter.tryAcquire(103));

        limiter.release(100, 105);
        assertEquals(1, limiter.used(105));
        assertEquals(0, limiter.tryAcquire(105));
        assertEquals(8, limiter.tryAcquire(105), "oldest is now 103");
    }

    @Test
    void releaseOfTheSameSlotTwiceGivesBackOnlyWhatWasTaken() {
        SlidingWindowLimiter limiter = new SlidingWindowLimiter(3, 10);
        assertEquals(0, limiter.tryAcquire(100));
        assertEquals(0, limiter.tryAcquire(101));
        limiter.release(100, 101);
        limiter.release(100, 101);
        assertEquals(1, limiter.used(101), "the second release of second 100 had nothing to give back");
        limiter.release(101, 101);
        limiter.release(101, 101);
        assertEquals(0, limiter.used(101));
        for (int i = 0; i < 3; i++) {
            assertEquals(0, limiter.tryAcquire(101));
        }
        assertTrue(limiter.tryAcquire(101) > 0, "releases never create more than limit slots");
    }

    @Test
    void releaseOfASlotThatLeftTheWindowChangesNothing() {
        SlidingWindowLimiter limiter = new SlidingWindowLimiter(2, 10);
        assertEquals(0, limiter.tryAcquire(100));
        assertEquals(0, limiter.tryAcquire(110), "100 has left; 110 shares its bucket index");
        assertEquals(0, limiter.tryAcquire(110));
        assertEquals(2, limiter.used(110));

        limiter.release(100, 110);
        assertEquals(2, limiter.used(110), "the slot at 100 is gone; the ones at 110 must not be given back");
        assertEquals(10, limiter.tryAcquire(110));
    }

    @Test
    void releaseOfASecondThatWasNeverAcquiredChangesNothing() {
        SlidingWindowLimiter limiter = new SlidingWindowLimiter(2, 10);
        assertEquals(0, limiter.tryAcquire(100));
        assertEquals(0, limiter.tryAcquire(101));
        limiter.release(102, 105);
        limiter.release(99, 105);
        assertEquals(2, limiter.used(105));
        assertEquals(5, limiter.tryAcquire(105));
    }

    @Test
    void aHugeTimeJumpEvictsEverything() {
        SlidingWindowLimiter limiter = new SlidingWindowLimiter(5, 60);
        for (int i = 0; i < 5; i++) {
            assertEquals(0, limiter.tryAcquire(100 + i));
        }
        assertTrue(limiter.tryAcquire(104) > 0);

        long later = 100 + 1_000_000;
        assertEquals(0, limiter.used(later));
        for (int i = 0; i < 5; i++) {
            assertEquals(0, limiter.tryAcquire(later), "acquisition " + (i + 1) + " after the jump");
        }
        assertEquals(60, limiter.tryAcquire(later));
    }

    @Test
    void aHugeTimeJumpStraightIntoTryAcquireEvictsEverything() {
        SlidingWindowLimiter limiter = new SlidingWindowLimiter(1, 10);
        assertEquals(0, limiter.tryAcquire(100));
        assertEquals(0, limiter.tryAcquire(100 + 1_000_000));
        assertEquals(10, limiter.tryAcquire(100 + 1_000_000));
    }

    /** An idle tenant (no call for two windows or more) must find an empty window, not its old events. */
    @ParameterizedTest
    @CsvSource({
            "10, 19", "10, 20", "10, 21", "10, 25", "10, 30", "10, 100",
            "1, 1", "1, 2", "1, 3",
            "60, 119", "60, 120", "60, 121", "60, 3600" })
    void anIdleGapOfAnyLengthBeyondTheWindowEvictsEverything(int window, long gap) {
        SlidingWindowLimiter limiter = new SlidingWindowLimiter(1, window);
        assertEquals(0, limiter.tryAcquire(1000));
        assertEquals(0, limiter.used(1000 + gap), "after " + gap + "s the event at 1000 is gone");
        assertEquals(0, limiter.tryAcquire(1000 + gap));
        assertEquals(window, limiter.tryAcquire(1000 + gap));
        // ... and the counts stay right afterwards.
        assertEquals(0, limiter.tryAcquire(1000 + gap + window));
    }

    /** A tenant that sent its limit and then went quiet for two windows must not stay refused forever. */
    @Test
    void anIdleTenantIsNotLockedOutAfterwards() {
        SlidingWindowLimiter limiter = new SlidingWindowLimiter(1, 10);
        assertEquals(0, limiter.tryAcquire(1000));
        int admitted = 0;
        for (long now = 1020; now < 1050; now++) {
            if (limiter.tryAcquire(now) == 0) {
                admitted++;
            }
        }
        assertEquals(3, admitted, "one per 10 s window over 30 s (at 1020, 1030, 1040)");
    }

    @Test
    void windowOfOneSecond() {
        SlidingWindowLimiter limiter = new SlidingWindowLimiter(2, 1);
        assertEquals(0, limiter.tryAcquire(7));
        assertEquals(0, limiter.tryAcquire(7));
        assertEquals(1, limiter.tryAcquire(7));
        assertEquals(2, limiter.used(7));
        assertEquals(0, limiter.used(8));
        assertEquals(0, limiter.tryAcquire(8));
        assertEquals(0, limiter.tryAcquire(8));
        assertEquals(1, limiter.tryAcquire(8));
        limiter.release(8, 8);
        assertEquals(0, limiter.tryAcquire(8));
        limiter.release(8, 9);
        assertEquals(0, limiter.used(9), "a release after the second has passed changes nothing");
    }

    @Test
    void constructorRefusesLimitOrWindowBelowOne() {
        assertThrows(IllegalArgumentException.class, () -> new SlidingWindowLimiter(0, 10));
        assertThrows(IllegalArgumentException.class, () -> new SlidingWindowLimiter(-1, 10));
        assertThrows(IllegalArgumentException.class, () -> new SlidingWindowLimiter(10, 0));
        assertThrows(IllegalArgumentException.class, () -> new SlidingWindowLimiter(10, -5));
        assertThrows(IllegalArgumentException.class, () -> new SlidingWindowLimiter(Integer.MIN_VALUE, 1));
        SlidingWindowLimiter ok = new SlidingWindowLimiter(1, 1);
        assertEquals(1, ok.limit());
        assertEquals(1, ok.windowSeconds());
    }

    /** The naive model: every counted event's second in a list; an event at s counts while now - s < window. */
    private static final class Reference {
        private final int limit;
        private final int window;
        private final List<Long> events = new ArrayList<>();

        Reference(int limit, int window) {
            this.limit = limit;
            this.window = window;
        }

        private void evict(long now) {
            events.removeIf(s -> s <= now - window);
        }

        long tryAcquire(long now) {
            evict(now);
            if (events.size() >= limit) {
                return Math.max(1, Collections.min(events) + window - now);
            }
            events.add(now);
            return 0;
        }

        void release(long acquired, long now) {
            evict(now);
            events.remove(Long.valueOf(acquired));
        }

        int used(long now) {
            evict(now);
            return events.size();
        }
    }

    @Test
    void agreesWithANaiveReferenceModelOverRandomOperations() {
        Random random = new Random(20240613L);
        int operations = 0;
        for (int round = 0; round < 300; round++) {
            int limit = 1 + random.nextInt(random.nextBoolean() ? 4 : 40);
            int window = 1 + random.nextInt(random.nextBoolean() ? 5 : 90);
            SlidingWindowLimiter limiter = new SlidingWindowLimiter(limit, window);
            Reference model = new Reference(limit, window);
            long now = random.nextInt(2_000_000) - 1_000_000;
            List<Long> taken = new ArrayList<>();
            for (int step = 0; step < 400; step++, operations++) {
                int dice = random.nextInt(100);
                if (dice < 40) {
                    now += 0;
                } else if (dice < 80) {
                    now += 1 + random.nextInt(Math.max(1, window / 2));
                } else if (dice < 95) {
                    now += random.nextInt(3 * window + 1);
                } else {
                    now += random.nextInt(1_000_000);
                }
                String where = "round " + round + " step " + step + " (limit " + limit + ", window " + window + ", now "
                        + now + ")";
                int op = random.nextInt(10);
                if (op < 6) {
                    long expected = model.tryAcquire(now);
                    assertEquals(expected, limiter.tryAcquire(now), "tryAcquire at " + where);
                    if (expected == 0) {
                        taken.add(now);
                    }
                } else if (op < 9) {
                    long second = taken.isEmpty() || random.nextInt(5) == 0
                            ? now - random.nextInt(2 * window + 1)
                            : taken.get(random.nextInt(taken.size()));
                    model.release(second, now);
                    limiter.release(second, now);
                    assertEquals(model.used(now), limiter.used(now), "used after release(" + second + ") at " + where);
                } else {
                    assertEquals(model.used(now), limiter.used(now), "used at " + where);
                }
            }
        }
        assertTrue(operations >= 100_000);
    }
}
