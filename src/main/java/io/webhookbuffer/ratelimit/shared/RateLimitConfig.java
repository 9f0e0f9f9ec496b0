package io.webhookbuffer.ratelimit.shared;

import java.time.Duration;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Tenant windows shared across replicas ({@link LeasedWindow}, {@link SharedWindows}); docs/configuration.md. */
@ConfigMapping(prefix = "buffer.ratelimit")
public interface RateLimitConfig {

    /**
     * Whether a tenant's window is shared by every replica through Redis (leases of slots); false keeps one window per
     * replica (a tenant is then admitted up to replicas x its limit).
     */
    @WithDefault("true")
    boolean shared();

    /** The most slots one lease takes; leases are also capped at limit / (20 x replicas), so the excess stays <= 7.5%. */
    @WithDefault("100")
    int maxLease();

    /**
     * How long a lease may take before admission falls back to the local share of the limit. Long enough that a
     * replica short of CPU does not fall back with Redis up (each fallback can admit a share over the limit); an
     * event waits this long at most once per outage (the fallback then retries without holding events).
     */
    @WithDefault("1s")
    Duration redisTimeout();

    /** How often each replica renews its presence, which gives every replica the replica count. */
    @WithDefault("5s")
    Duration heartbeat();
}
