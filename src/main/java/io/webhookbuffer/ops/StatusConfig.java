package io.webhookbuffer.ops;

import java.time.Duration;
import java.util.Optional;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** The /status page ({@code buffer.status.*}). */
@ConfigMapping(prefix = "buffer.status")
public interface StatusConfig {

    /**
     * Bearer token that opens the page (at least 32 characters). Unset: the page is off (404). Send it as
     * {@code Authorization: Bearer ...}, or open {@code /status?token=...} once in a browser: that sets an HttpOnly
     * session cookie and redirects to {@code /status}, so the token leaves the address bar.
     */
    Optional<String> token();

    /** How often the page reloads itself. */
    @WithDefault("10s")
    Duration refresh();

    /** How long the browser session cookie lasts. */
    @WithDefault("8h")
    Duration sessionTtl();
}
