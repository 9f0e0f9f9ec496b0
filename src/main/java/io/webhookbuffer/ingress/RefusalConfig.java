package io.webhookbuffer.ingress;

import java.time.Duration;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** The per-tenant record of refused requests ({@link RefusalLog}); docs/configuration.md. */
@ConfigMapping(prefix = "buffer.refusals")
public interface RefusalConfig {

    /** How many of a tenant's latest refusals are kept (in each replica's memory and in Redis). */
    @WithDefault("20")
    int perTenant();

    /**
     * How many tenants a replica keeps refusals for; the least recently refused are forgotten first. With
     * {@code per-tenant} it bounds the memory: 1,000 × 20 entries of at most ~600 bytes, about 12 MB at worst.
     */
    @WithDefault("1000")
    int maxTenants();

    /** How long a tenant's merged list lives in Redis after its last refusal. */
    @WithDefault("24h")
    Duration retention();

    /** How often each replica appends its new refusals to Redis (one append per tenant that had any). */
    @WithDefault("1s")
    Duration flushInterval();
}
