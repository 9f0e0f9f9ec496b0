package io.webhookbuffer.controlplane;

import java.time.Duration;
import java.util.Optional;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** The control-plane seam ({@code buffer.control.*}): command authentication and where usage and events go. */
@ConfigMapping(prefix = "buffer.control")
public interface ControlConfig {

    /**
     * Shared HMAC secret for signed commands and pushes, at least 32 bytes outside local mode. Unset: every command is
     * refused (fail closed). Never logged.
     */
    Optional<String> secret();

    /** The previous secret, still accepted while the control plane rotates to the new one. */
    Optional<String> previousSecret();

    /** A command's x-timestamp may differ from this replica's clock by at most this much, either way. */
    @WithDefault("300s")
    Duration timestampTolerance();

    /** A nonce is remembered this long; at least twice the tolerance so it outlives every acceptable timestamp. */
    @WithDefault("600s")
    Duration nonceTtl();

    /**
     * The control plane's base URL: usage snapshots go to {@code POST {url}/usage}, lifecycle events to
     * {@code POST {url}/lifecycle-events}, signed with {@code buffer.control.secret}. Unset: nothing is pushed.
     */
    Optional<String> url();

    /** How long a push to the control plane may take before it counts as failed. */
    @WithDefault("10s")
    Duration requestTimeout();
}
