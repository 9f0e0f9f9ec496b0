package io.webhookbuffer.delivery;

import io.webhookbuffer.common.BufferClock;

/**
 * What a drain step decided: go on with the next step, go idle, wait until {@code untilMillis} (epoch ms on the
 * {@link BufferClock}), or stop because the lease was lost under a write (which then changed nothing).
 */
record NextStep(Kind kind, long untilMillis) {

    enum Kind {
        CONTINUE, IDLE, WAIT, LOST
    }

    static final NextStep CONTINUE = new NextStep(Kind.CONTINUE, 0);
    static final NextStep IDLE = new NextStep(Kind.IDLE, 0);
    static final NextStep LOST = new NextStep(Kind.LOST, 0);

    static NextStep waitUntil(long millis) {
        return new NextStep(Kind.WAIT, millis);
    }
}
