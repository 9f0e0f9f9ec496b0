package io.webhookbuffer.ingress;

import java.util.concurrent.TimeUnit;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

import io.webhookbuffer.ratelimit.SlidingWindowLimiter;

/**
 * At most {@code limit} of something per tenant in {@code windowSeconds}, on this replica (the GET checks answered,
 * the secret handshakes sent to the database), for at most {@link #MAX_TENANTS} tenants at once. Thread-safe: each
 * limiter is guarded by itself.
 */
final class TenantPace {

    private static final int MAX_TENANTS = 10_000;

    private final int limit;
    private final int windowSeconds;
    private final Cache<String, SlidingWindowLimiter> limiters;

    TenantPace(int limit, int windowSeconds) {
        this.limit = limit;
        this.windowSeconds = windowSeconds;
        this.limiters = Caffeine.newBuilder().maximumSize(MAX_TENANTS)
                .expireAfterAccess(2L * windowSeconds, TimeUnit.SECONDS).build();
    }

    /** 0 when the tenant may have one more now (and takes it), else the seconds until it may. */
    long take(String tenantId) {
        SlidingWindowLimiter limiter = limiters.get(tenantId, id -> new SlidingWindowLimiter(limit, windowSeconds));
        long second = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime());
        synchronized (limiter) {
            return limiter.tryAcquire(second);
        }
    }
}
