package io.webhookbuffer.queue;

import java.time.Duration;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** How long dedupe records are kept ({@code buffer.dedupe.*}). */
@ConfigMapping(prefix = "buffer.dedupe")
public interface DedupeConfig {

    /** Dedupe records older than this are removed: longer than Stripe's 3-day retry window. */
    @WithDefault("4d")
    Duration retention();
}
