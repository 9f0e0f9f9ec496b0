package io.webhookbuffer.bench;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Settings the benchmark needs inside the service ({@code buffer.bench.*}). */
@ConfigMapping(prefix = "buffer.bench")
public interface BenchConfig {

    /**
     * Serve {@code POST /bench/ceiling}, which answers 202 after reading the body and doing nothing else: the HTTP
     * ceiling of this machine, measured in the same server as ingest. Off in production (the path answers 404).
     */
    @WithDefault("false")
    boolean ceilingEndpoint();
}
