package io.webhookbuffer.tenant;

import java.time.Duration;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** How ingress caches tenant configuration ({@code buffer.tenants.*}). */
@ConfigMapping(prefix = "buffer.tenants")
public interface TenantConfig {

    /**
     * How often each replica asks PostgreSQL which tenants changed and forgets those: how stale a cached tenant can
     * be when the Redis announcement was missed.
     */
    @WithDefault("5s")
    Duration cacheRefresh();

    /**
     * Background refreshes in flight at once; the others wait their turn while the cached value keeps serving. Keeps
     * a wave of refreshes (tenants first seen together come due together) from queueing in the database pool ahead of
     * the group commit.
     */
    @WithDefault("2")
    int maxConcurrentRefreshes();

    /**
     * A cached tenant is dropped this long after it was loaded (reloaded in the background while in use, starting
     * between three quarters and seven eighths of it): the bound for a row changed without touching
     * {@code updated_at}.
     */
    @WithDefault("60s")
    Duration cacheTtl();

    /** At most this many tenants are cached. */
    @WithDefault("100000")
    long cacheSize();

    /**
     * An unknown tenant id is remembered as unknown this long (never as known): a sender that keeps posting to a
     * deleted or mistyped id costs one query per id per this long. Short, because a tenant provisioned meanwhile is
     * found at once only on the replicas the Redis announcement reached.
     */
    @WithDefault("2s")
    Duration negativeCacheTtl();

    /**
     * At most this many unknown ids are remembered, so invented ids cannot fill memory (about 100 bytes each). Random
     * ids never repeat, so this cache does nothing against them: the miss budget does.
     */
    @WithDefault("10000")
    long negativeCacheSize();

    /**
     * A lookup a request waits for (an id no cache holds, known lately or not) fails after this long, its turn in the
     * miss budget and the database's answer included: ingress answers 503 with {@code Retry-After} instead of holding
     * the sender until the pool's own 30 s connection timeout while the pool is busy or PostgreSQL stalls.
     */
    @WithDefault("2s")
    Duration lookupTimeout();

    /** The budget for queries about ids no cache holds: what a flood of invented ids may cost PostgreSQL. */
    MissBudget missBudget();

    interface MissBudget {
        /**
         * Cache-miss queries in flight at once, all ids together: the share of the database pool a flood of unknown
         * ids can hold. With {@code max-concurrent-refreshes} and the change poll it must leave the group commit and
         * the readiness probe their connections (checked at start-up against the pool size).
         */
        @WithDefault("2")
        int maxConcurrent();

        /** Misses that may wait for a turn; one more is answered 503 {@code lookup_busy} without a query. */
        @WithDefault("64")
        int maxWaiting();

        /** How long a miss may wait for its turn before it is answered 503 {@code lookup_busy} without a query. */
        @WithDefault("250ms")
        Duration maxWait();

        /**
         * Cache-miss queries admitted per second (a burst of one second's worth); past it a miss is answered 503
         * {@code lookup_busy} at once. 0 means no rate, only the concurrency bound.
         */
        @WithDefault("500")
        int perSecond();
    }

    /** Redis channel on which replicas announce tenant changes. */
    @WithDefault("webhook-buffer:tenant-changed")
    String invalidationChannel();

    /** Accepted events per window for a tenant provisioned without {@code rateLimit}. */
    @WithDefault("100")
    int defaultRateLimit();

    /** Window length in seconds for a tenant provisioned without {@code rateWindowSeconds}. */
    @WithDefault("10")
    int defaultRateWindowSeconds();

    OriginPull originPull();

    interface OriginPull {
        /** When a tenant is not in PostgreSQL, ask the origin's {@code GET /internal/tenants/{id}/webhook-config}. */
        @WithDefault("false")
        boolean enabled();

        /** Time allowed for the origin's answer. */
        @WithDefault("3s")
        Duration timeout();

        /** Questions to the origin in flight at once (the bulkhead), all ids together. */
        @WithDefault("4")
        int maxConcurrent();

        /** Questions that may wait for a turn; one more is answered 503 {@code lookup_busy} without asking. */
        @WithDefault("16")
        int maxWaiting();

        /** How long a question may wait for its turn before it is answered 503 {@code lookup_busy} without asking. */
        @WithDefault("1s")
        Duration maxWait();
    }
}
