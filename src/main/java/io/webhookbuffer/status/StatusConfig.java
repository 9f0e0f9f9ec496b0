package io.webhookbuffer.status;

import java.util.Optional;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** The /status page ({@code buffer.status.*}). */
@ConfigMapping(prefix = "buffer.status")
public interface StatusConfig {

    /**
     * Bearer token that opens the page (at least 32 characters). Unset: the page is off (404). Send it as
     * {@code Authorization: Bearer ...}, or sign in with the form a browser is shown at {@code /status} (a POST to
     * {@code /status/sign-in}, the token in the body): that sets a session cookie and redirects to {@code /status}.
     * Never in the address: {@code /status?token=...} is refused (400), as addresses end up in proxy logs.
     */
    Optional<String> token();

    /**
     * Whether the session cookie is {@code Secure} (sent over HTTPS only). On, except in local mode, where the page is
     * opened over plain HTTP (a browser treats {@code localhost} as secure, another address not).
     */
    @WithDefault("true")
    boolean secureCookie();
}
