package io.webhookbuffer.health;

import java.time.Duration;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Health probe timings ({@code buffer.health.*}). */
@ConfigMapping(prefix = "buffer.health")
public interface HealthConfig {

    /**
     * A probe of PostgreSQL, Redis or the event loops not answered within this time counts as down; a group commit
     * that succeeded within this time makes readiness UP without a query.
     */
    @WithDefault("2s")
    Duration timeout();

    /** How often Redis is pinged (its state is reported by the checks and buffer_redis_fallback). */
    @WithDefault("5s")
    Duration redisInterval();
}
