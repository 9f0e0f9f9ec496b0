package io.webhookbuffer.ratelimit.shared;

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
}
