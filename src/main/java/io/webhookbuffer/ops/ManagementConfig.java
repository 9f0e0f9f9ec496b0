package io.webhookbuffer.ops;

import java.util.Optional;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** The management port ({@code buffer.management.*}): where /q/*, /control and /status are answered. */
@ConfigMapping(prefix = "buffer.management")
public interface ManagementConfig {

    /**
     * The management port. Set: {@code /q/*} (health, metrics, OpenAPI), {@code /control/...} and {@code /status} are
     * answered on this port only, and only they are (the webhook port answers 404 for them, this one 404 for
     * everything else). Unset: one port for everything (local mode, the tests). {@code 0}: a free port (tests).
     */
    Optional<Integer> port();

    /** The interface the management port listens on. */
    @WithDefault("0.0.0.0")
    String host();
}
