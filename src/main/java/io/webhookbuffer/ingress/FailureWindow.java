package io.webhookbuffer.ingress;

/**
 * Failures counted over a sliding window, approximated from two fixed buckets (the current one and the one before it,
 * weighted by how much of it is still inside the window): a few fields per counter, so a hundred thousand of them fit
 * in a few MiB. The per-second ring of {@code ratelimit.SlidingWindowLimiter} is exact but costs 12 bytes per second
 * of window per counter, which is more than a counter per tenant needs. Thread-safe.
 */
final class FailureWindow {

    private final long windowNanos;
    // @protectedby this
    private long bucketStart;
    // @protectedby this
    private int current;
    // @protectedby this
    private int previous;

    FailureWindow(long windowNanos, long nowNanos) {
        this.windowNanos = windowNanos;
        this.bucketStart = nowNanos;
    }

    /** A failure that counts as {@code weight} (at least 1) failures. */
    synchronized void record(long nowNanos, int weight) {
        roll(nowNanos);
        current = (int) Math.min(Integer.MAX_VALUE, (long) current + Math.max(1, weight));
    }

    /** Failures in the window ending now (the older bucket counted by the share of it still inside the window). */
    synchronized double count(long nowNanos) {
        roll(nowNanos);
        double outside = (double) (nowNanos - bucketStart) / windowNanos;
        return previous * (1 - outside) + current;
    }

    private void roll(long nowNanos) {
        long elapsed = nowNanos - bucketStart;
        if (elapsed < windowNanos) {
            return;
        }
        if (elapsed < 2 * windowNanos) {
            previous = current;
            bucketStart += windowNanos;
        } else {
            previous = 0;
            bucketStart = nowNanos;
        }
        current = 0;
    }
}
