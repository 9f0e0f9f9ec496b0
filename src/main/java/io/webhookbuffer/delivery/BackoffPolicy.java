package io.webhookbuffer.delivery;

import java.time.Duration;
import java.util.function.DoubleSupplier;

/**
 * Retry delay as a pure function of the attempt number: capped exponential with proportional jitter. The delay for
 * attempt n (1-based) is drawn from [d/2, d] where d = min(cap, base × 2^(n-1)): the jitter spreads tenants that
 * failed together (no thundering herd when the origin returns) while the bound still grows with every failure.
 * A {@code Retry-After} from the origin raises the delay to at least what it asks.
 */
public final class BackoffPolicy {

    private final long baseMillis;
    private final long capMillis;
    private final DoubleSupplier random;

    public BackoffPolicy(Duration base, Duration cap, DoubleSupplier random) {
        if (base.isNegative() || base.isZero() || cap.compareTo(base) < 0) {
            throw new IllegalArgumentException("backoff needs 0 < base <= cap, was base " + base + ", cap " + cap);
        }
        this.baseMillis = base.toMillis();
        this.capMillis = cap.toMillis();
        this.random = random;
    }

    /** The upper bound of the delay after the {@code attempt}-th failure. */
    public long boundMillis(int attempt) {
        int doublings = Math.max(0, attempt - 1);
        if (doublings >= 62) {
            return capMillis;
        }
        long d = baseMillis << doublings;
        boolean overflowed = d <= 0 || (d >> doublings) != baseMillis;
        return overflowed ? capMillis : Math.min(d, capMillis);
    }

    /**
     * @param retryAfterMillis what the origin asked for (0 when it did not)
     */
    public long delayMillis(int attempt, long retryAfterMillis) {
        long bound = boundMillis(attempt);
        long jittered = bound / 2 + (long) (random.getAsDouble() * (bound - bound / 2));
        return Math.max(jittered, retryAfterMillis);
    }
}
