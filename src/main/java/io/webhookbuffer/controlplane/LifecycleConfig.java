package io.webhookbuffer.controlplane;

import java.time.Duration;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** The lifecycle-event outbox ({@code buffer.lifecycle.*}). */
@ConfigMapping(prefix = "buffer.lifecycle")
public interface LifecycleConfig {

    /** How often milestones are scanned for and undelivered events sent; occurredAt is accurate to this. */
    @WithDefault("1h")
    Duration interval();

    /** origin_failing: a tenant's oldest pending event is older than this (paused tenants excepted). */
    @WithDefault("15m")
    Duration originFailingAfter();

    /** backlog_high: a tenant has more than this many events queued. */
    @WithDefault("10000")
    long backlogThreshold();
}
