package io.webhookbuffer.warmup;

import java.time.Duration;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** The start-up warm-up ({@code buffer.warmup.*}): see {@link Warmup}. */
@ConfigMapping(prefix = "buffer.warmup")
public interface WarmupConfig {

    /** Rehearse the ingest path before readiness reports UP. */
    @WithDefault("true")
    boolean enabled();

    /**
     * The rehearsal ends after this long even if it has not sent its 40,000 requests; readiness then waits at most half
     * as long again for the JIT compiler to go quiet. So readiness comes at most 1.5 times this after the HTTP server
     * listens.
     */
    @WithDefault("20s")
    Duration maxDuration();
}
