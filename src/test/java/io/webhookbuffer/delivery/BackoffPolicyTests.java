package io.webhookbuffer.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Random;

import org.junit.jupiter.api.Test;

/** The retry schedule as a pure function of the attempt number. */
class BackoffPolicyTests {

    private final BackoffPolicy policy = new BackoffPolicy(Duration.ofSeconds(2), Duration.ofMinutes(5), () -> 1.0);

    @Test
    void boundDoublesFromTheBaseUntilTheCap() {
        assertEquals(2_000, policy.boundMillis(1));
        assertEquals(4_000, policy.boundMillis(2));
        assertEquals(8_000, policy.boundMillis(3));
        assertEquals(256_000, policy.boundMillis(8));
        assertEquals(300_000, policy.boundMillis(9));
        assertEquals(300_000, policy.boundMillis(25));
        assertEquals(300_000, policy.boundMillis(Integer.MAX_VALUE), "no overflow for huge attempt counts");
        assertEquals(2_000, policy.boundMillis(0), "attempt numbers below 1 are treated as the first");
    }

    @Test
    void delayStaysWithinHalfTheBoundAndTheBound() {
        Random random = new Random(42);
        BackoffPolicy jittered = new BackoffPolicy(Duration.ofSeconds(2), Duration.ofMinutes(5), random::nextDouble);
        for (int attempt = 1; attempt <= 30; attempt++) {
            long bound = jittered.boundMillis(attempt);
            for (int i = 0; i < 200; i++) {
                long d = jittered.delayMillis(attempt, 0);
                assertTrue(d >= bound / 2 && d <= bound, "attempt " + attempt + ": " + d + " outside [" + bound / 2
                        + ", " + bound + "]");
            }
        }
    }

    @Test
    void jitterSpreadsDelays() {
        BackoffPolicy low = new BackoffPolicy(Duration.ofSeconds(2), Duration.ofMinutes(5), () -> 0.0);
        assertEquals(4_000, low.delayMillis(3, 0));
        assertEquals(8_000, policy.delayMillis(3, 0));
    }

    @Test
    void retryAfterRaisesTheDelayButNeverLowersIt() {
        assertEquals(60_000, policy.delayMillis(1, 60_000));
        assertEquals(600_000, policy.delayMillis(1, 600_000), "an origin may ask for more than the cap");
        assertEquals(8_000, policy.delayMillis(3, 1_000));
    }

    @Test
    void refusesABaseOfZeroOrACapBelowTheBase() {
        assertThrows(IllegalArgumentException.class, () -> new BackoffPolicy(Duration.ZERO, Duration.ofSeconds(1), () -> 0));
        assertThrows(IllegalArgumentException.class,
                () -> new BackoffPolicy(Duration.ofSeconds(2), Duration.ofSeconds(1), () -> 0));
    }
}
