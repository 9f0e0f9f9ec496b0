package io.webhookbuffer.common;

import java.util.function.LongConsumer;

import jakarta.inject.Singleton;

import io.vertx.core.Vertx;

/**
 * The service's one clock. Wall time in epoch milliseconds for what is compared with other clocks: a request's receive
 * time (signed provider timestamps are checked against it, and it is stamped on the event), rows' due times, the
 * status page's "backing off until". A monotonic reading for durations and rate windows (a step of the wall clock
 * must not open or close a window). Vert.x timers for delivery's waits. A bean so that a test moves time forward or
 * replays a provider's recorded request at its own time instead of waiting (testsupport's TestClock). Every
 * wall-time reading of the service's own code is on it: {@link #millis} for the service's own time (a request's
 * receipt, due times, refusals' times, the status page's sessions, the handshake window, the backlog snapshot's
 * time), which a test may move; {@link #realMillis} for a timestamp another process signs or checks on its own clock
 * (control commands, the pushes to the control plane, the origin batch's signature, replicas' heartbeats in Redis),
 * which no test moves. Not on it: leases expire on PostgreSQL's clock, {@code bufferctl} signs on its own machine's
 * clock, and a drain step's own time-out and the breakers' delay run on real time.
 */
@Singleton
public class BufferClock {

    private final Vertx vertx;

    public BufferClock(Vertx vertx) {
        this.vertx = vertx;
    }

    /** Now, in epoch milliseconds. */
    public long millis() {
        return System.currentTimeMillis();
    }

    /**
     * The real wall clock, in epoch milliseconds, for a timestamp another process signs or checks against its own
     * clock (a control command's, a push's, the origin batch's signature, a replica's heartbeat); never moved by a
     * test, so a test that replays a provider's request at its recorded time still signs commands the buffer accepts.
     */
    public long realMillis() {
        return System.currentTimeMillis();
    }

    /** A monotonic reading for durations (nanoseconds, arbitrary origin). */
    public long nanos() {
        return System.nanoTime();
    }

    /** Monotonic whole seconds, for rate windows (never wall time). */
    public long seconds() {
        return nanos() / 1_000_000_000L;
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
