package io.webhookbuffer.controlplane;

import java.time.Duration;
import java.util.Optional;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Control-plane command authentication ({@code buffer.control.*}). */
@ConfigMapping(prefix = "buffer.control")
public interface ControlConfig {

    /** Shared HMAC secret for signed commands. Unset: every command is refused (fail closed). Never logged. */
    Optional<String> secret();

    /** The previous secret, still accepted while the control plane rotates to the new one. */
    Optional<String> previousSecret();

    /** A command's x-timestamp may differ from this replica's clock by at most this much, either way. */
    @WithDefault("300s")
    Duration timestampTolerance();

    /** A nonce is remembered this long; at least twice the tolerance so it outlives every acceptable timestamp. */
    @WithDefault("600s")
    Duration nonceTtl();
}
