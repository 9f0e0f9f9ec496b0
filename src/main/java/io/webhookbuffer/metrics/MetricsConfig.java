package io.webhookbuffer.metrics;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Metric label bounds ({@code buffer.metrics.*}). */
@ConfigMapping(prefix = "buffer.metrics")
public interface MetricsConfig {

    /**
     * How many tenants get their own {@code buffer_tenant_backlog_*} series: those with the oldest pending events.
     * Bounds the label set; a tenant's series go when it leaves the top N (its backlog drained or others older).
     */
    @WithDefault("10")
    int topTenants();
}
