package io.webhookbuffer.delivery;

/**
 * A tenant's delivery as this replica last saw it: a step running now, backing off until {@code backoffUntilMillis}
 * (epoch ms, 0 when not), the origin's breaker open, and the last failed attempt's error and HTTP status (0: none or
 * no answer), cleared by the next success; {@code held}: why its batches are held, not sent (its stored
 * {@code originUrl} is no longer allowed), or null.
 */
public record DrainView(boolean running, long backoffUntilMillis, boolean circuitOpen, String lastError,
        int lastStatus, String held) {

    public DrainView(boolean running, long backoffUntilMillis, boolean circuitOpen, String lastError, int lastStatus) {
        this(running, backoffUntilMillis, circuitOpen, lastError, lastStatus, null);
    }
}
