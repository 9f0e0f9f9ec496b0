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

    /** An unknown tenant id is remembered as unknown this long (never as known). */
    @WithDefault("2s")
    Duration negativeCacheTtl();

    /** At most this many unknown ids are remembered, so invented ids cannot fill memory. */
    @WithDefault("10000")
    long negativeCacheSize();

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
    }
}
