package io.webhookbuffer.usage;

import java.time.Duration;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Usage counting and the snapshot push ({@code buffer.usage.*}). */
@ConfigMapping(prefix = "buffer.usage")
public interface UsageConfig {

    /** How often a full snapshot of each active tenant's billing period is pushed to the control plane. */
    @WithDefault("1h")
    Duration interval();
}
