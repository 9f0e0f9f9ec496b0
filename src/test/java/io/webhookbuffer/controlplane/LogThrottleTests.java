package io.webhookbuffer.controlplane;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The v1 deprecation WARN's gate: the first occurrence, then at most one a minute, with what was held back. */
class LogThrottleTests {

    @Test
    void letsOneThroughPerIntervalAndCountsTheRest() {
        LogThrottle gate = new LogThrottle(60_000);
        assertEquals(0, gate.due(1_000_000), "the first is let through");
        assertEquals(-1, gate.due(1_000_001));
        assertEquals(-1, gate.due(1_059_999));
        assertEquals(2, gate.due(1_060_000), "a minute later, with the two held back");
        assertEquals(-1, gate.due(1_060_001));
        assertEquals(1, gate.due(5_000_000), "after a quiet hour, the next is let through at once");
    }
}
