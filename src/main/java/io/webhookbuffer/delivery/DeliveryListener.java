package io.webhookbuffer.delivery;

import java.util.Locale;

/**
 * Told about every batch delivery attempt (the metrics package implements it). Runs on an event loop: it must be
 * cheap and must not block.
 */
public interface DeliveryListener {

    /** How a batch attempt ended. */
    enum Outcome {
        /** 2xx: the batch left the queue (events the origin listed as rejected were dead-lettered). */
        SUCCESS,
        /** 5xx, 408, 429, 3xx, a timeout or no answer: the batch is retried after a backoff. */
        FAILED,
        /** Any other 4xx: the batch is halved to find the refused event, which is dead-lettered. */
        REFUSED,
        /** The origin's breaker is open: nothing was sent. */
        CIRCUIT_OPEN;

        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** {@code elapsedNanos} is the origin's answer time, 0 for {@link Outcome#CIRCUIT_OPEN}. */
    void attempted(Outcome outcome, long elapsedNanos);
}
