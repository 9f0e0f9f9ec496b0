package io.webhookbuffer.delivery;

import io.webhookbuffer.common.BufferClock;

/**
 * What a drain step decided: go on with the next step, go idle, wait until {@code untilMillis} (epoch ms on the
 * {@link BufferClock}), or stop because the lease was lost under a write (which then changed nothing).
 */
record Next(Kind kind, long untilMillis) {

    enum Kind {
        CONTINUE, IDLE, WAIT, LOST
    }

    static final Next CONTINUE = new Next(Kind.CONTINUE, 0);
    static final Next IDLE = new Next(Kind.IDLE, 0);
    static final Next LOST = new Next(Kind.LOST, 0);

    static Next waitUntil(long millis) {
        return new Next(Kind.WAIT, millis);
    }
}
