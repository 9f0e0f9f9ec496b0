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
     * A lookup a request waits for (a tenant no cache holds) fails after this long, its turn among the other
     * tenants' loads and the database's answer included: ingress answers 503 with {@code Retry-After} instead of holding
     * the sender until the pool's own 30 s connection timeout while the pool is busy or PostgreSQL stalls. The query
     * itself goes on, shared by every request for the id. With origin pull-through on, the origin's turn and answer
     * count too. A changed tenant's background reload (the cached row serving meanwhile) that has not answered within
     * it forgets the tenant: fail closed, so the old row serves at most this much longer than when a change forgot it
     * at once.
     */
    @WithDefault("2s")
    Duration lookupTimeout();

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

        /**
         * Questions to the origin in flight at once (the bulkhead), all ids together. Four times as many may wait for a
         * turn, each for at most a second ({@code TenantDirectory.ORIGIN_WAIT}); one more, or one whose wait is over,
         * is answered 503 {@code lookup_busy} without asking.
         */
        @WithDefault("4")
        int maxConcurrent();
    }
}
