package io.webhookbuffer.controlplane;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Lets a repeated log line through at most once per interval, counting the occurrences it held back, so a WARN that
 * every request could trigger costs one line a minute, not one per request. Lock-free; time is passed in.
 */
final class LogThrottle {

    private final long intervalMillis;
    private final AtomicLong nextAtMillis = new AtomicLong(Long.MIN_VALUE);
    private final AtomicLong heldBack = new AtomicLong();

    LogThrottle(long intervalMillis) {
        this.intervalMillis = intervalMillis;
    }

    /**
     * @return -1 when this occurrence is held back, else how many were held back since the last one let through
     */
    long due(long nowMillis) {
        long next = nextAtMillis.get();
        if (nowMillis >= next && nextAtMillis.compareAndSet(next, nowMillis + intervalMillis)) {
            return heldBack.getAndSet(0);
        }
        heldBack.incrementAndGet();
        return -1;
    }
}
