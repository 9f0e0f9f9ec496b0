package io.webhookbuffer.ratelimit;

import java.util.Arrays;

/**
 * Counts accepted events over the last {@code windowSeconds} whole seconds and refuses the one that
 * would exceed {@code limit}. Memory is one int and one long per second of window; every operation is
 * amortised O(1) because buckets are evicted once, as time passes them.
 *
 * <p>Not thread-safe: a tenant's actor owns its limiter.
 *
 * <p>Time is a monotonic second counter supplied by the caller (never wall time: a clock step must not
 * open or close the window).
 */
public final class SlidingWindowLimiter {

    private final int limit;
    private final int windowSeconds;
    private final int[] counts;
    private final long[] seconds;
    private int total;
    private long evictedThrough = Long.MIN_VALUE;

    public SlidingWindowLimiter(int limit, int windowSeconds) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be at least 1, was " + limit);
        }
        if (windowSeconds < 1) {
            throw new IllegalArgumentException("windowSeconds must be at least 1, was " + windowSeconds);
        }
        this.limit = limit;
        this.windowSeconds = windowSeconds;
        this.counts = new int[windowSeconds];
        this.seconds = new long[windowSeconds];
        Arrays.fill(seconds, Long.MIN_VALUE);
    }

    public int limit() {
        return limit;
    }

    public int windowSeconds() {
        return windowSeconds;
    }

    /**
     * Takes a slot at {@code nowSecond} if one is free.
     *
     * @return 0 when the slot was taken, else the whole seconds (at least 1) until the oldest counted
     *         event leaves the window and a slot frees
     */
    public long tryAcquire(long nowSecond) {
        return tryAcquire(nowSecond, limit);
    }

    /** {@link #tryAcquire(long)} against a lower cap than the limit (a replica's share of a shared limit). */
    public long tryAcquire(long nowSecond, int cap) {
        evict(nowSecond);
        if (total >= Math.min(cap, limit)) {
            return secondsUntilSlotFrees(nowSecond);
        }
        record(nowSecond);
        return 0;
    }

    /**
     * Counts an event admitted at {@code nowSecond} by another authority (a lease of a shared window), even past the
     * limit, so that this window, if it has to decide later, knows what was already admitted.
     */
    public void record(long nowSecond) {
        evict(nowSecond);
        int i = index(nowSecond);
        if (seconds[i] != nowSecond) {
            seconds[i] = nowSecond;
            counts[i] = 0;
        }
        counts[i]++;
        total++;
    }

    /**
     * Gives back a slot taken at {@code acquiredSecond} (the event turned out to be a duplicate, or was
     * not stored). A slot that has already left the window is gone and nothing changes.
     */
    public void release(long acquiredSecond, long nowSecond) {
        evict(nowSecond);
        int i = index(acquiredSecond);
        if (seconds[i] == acquiredSecond && counts[i] > 0) {
            counts[i]--;
            total--;
        }
    }

    /** Events counted in the window ending at {@code nowSecond}. */
    public int used(long nowSecond) {
        evict(nowSecond);
        return total;
    }

    private void evict(long nowSecond) {
        long oldestKept = nowSecond - windowSeconds + 1;
        long from = Math.max(evictedThrough + 1, oldestKept - windowSeconds);
        for (long s = from; s < oldestKept; s++) {
            int i = index(s);
            // Not "== s": after a gap of two windows or more, a bucket can hold a second older than "from"
            // (which is never revisited); whenever the gap is that long this loop visits every index.
            if (seconds[i] != Long.MIN_VALUE && seconds[i] < oldestKept) {
                total -= counts[i];
                counts[i] = 0;
                seconds[i] = Long.MIN_VALUE;
            }
        }
        evictedThrough = Math.max(evictedThrough, oldestKept - 1);
    }

    private long secondsUntilSlotFrees(long nowSecond) {
        long oldest = Long.MAX_VALUE;
        for (int i = 0; i < windowSeconds; i++) {
            if (counts[i] > 0 && seconds[i] < oldest) {
                oldest = seconds[i];
            }
        }
        // The oldest event's bucket leaves the window when nowSecond reaches oldest + windowSeconds.
        return Math.max(1, oldest + windowSeconds - nowSecond);
    }

    private int index(long second) {
        return (int) Math.floorMod(second, (long) windowSeconds);
    }
}
