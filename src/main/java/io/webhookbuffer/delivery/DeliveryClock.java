package io.webhookbuffer.delivery;

import java.util.function.LongConsumer;

import jakarta.inject.Singleton;

import io.vertx.core.Vertx;

/**
 * Delivery's time and timers: backoff and breaker waits, linger, pacing, the origins' health evidence, the status
 * page's "backing off until". A bean so that a test can move delivery's time forward instead of waiting for it; the
 * default is the wall clock (epoch ms: the rows' due times are compared with it), the monotonic clock (durations)
 * and Vert.x timers. Leases are not on it: they expire on PostgreSQL's clock, and a step's own time-out (one lease
 * TTL) and the breakers' delay run on real time too.
 */
@Singleton
public class DeliveryClock {

    private final Vertx vertx;

    public DeliveryClock(Vertx vertx) {
        this.vertx = vertx;
    }

    /** Now, in epoch milliseconds. */
    public long millis() {
        return System.currentTimeMillis();
    }

    /** A monotonic reading for durations (nanoseconds, arbitrary origin). */
    public long nanos() {
        return System.nanoTime();
    }

    /** Calls {@code handler} with the timer's id on an event loop once {@code delayMillis} (at least 1) have passed. */
    public long setTimer(long delayMillis, LongConsumer handler) {
        return vertx.setTimer(delayMillis, handler::accept);
    }

    /** False when the timer already fired or was cancelled. */
    public boolean cancelTimer(long id) {
        return vertx.cancelTimer(id);
    }
}
