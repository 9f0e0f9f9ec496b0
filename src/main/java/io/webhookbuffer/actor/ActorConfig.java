package io.webhookbuffer.actor;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Per-tenant actors ({@code buffer.actor.*}). */
@ConfigMapping(prefix = "buffer.actor")
public interface ActorConfig {

    /** Events a tenant may have between arrival and answer; beyond it ingress answers 503 + Retry-After. */
    @WithDefault("1000")
    int mailboxCapacity();
}
