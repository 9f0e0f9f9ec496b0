package io.webhookbuffer.controlplane;

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

    /**
     * Whether commands signed in the seed's v1 format (which binds neither method nor path) are still accepted. True
     * by default: it is the contract existing control planes speak, and refusing it would lock them out at the
     * upgrade; each replica logs a WARN at most once a minute while v1 commands arrive. Set false once the control
     * plane signs v2.
     */
    @WithDefault("true")
    boolean acceptV1();

    /**
     * The signature format of the pushes to {@code buffer.control.url}: 1 (the seed's, what existing control planes
     * verify) or 2 (binds direction, method and path; the {@code x-signature} value then starts with {@code v2=}).
     */
    @WithDefault("1")
    int pushSignatureVersion();

    /**
     * The control plane's base URL: usage snapshots go to {@code POST {url}/usage}, lifecycle events to
     * {@code POST {url}/lifecycle-events}, signed with {@code buffer.control.secret}. Unset: nothing is pushed.
     */
    Optional<String> url();
}
