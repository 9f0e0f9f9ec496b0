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

    /** How long a tenant's merged list lives in Redis after its last refusal. */
    @WithDefault("24h")
    Duration retention();
}
