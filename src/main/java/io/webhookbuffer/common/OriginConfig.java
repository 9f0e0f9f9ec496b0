package io.webhookbuffer.common;

import java.util.Optional;

import io.smallrye.config.ConfigMapping;

/** Where the customer's origin is ({@code buffer.origin.*}). */
@ConfigMapping(prefix = "buffer.origin")
public interface OriginConfig {

    /** The origin's base URL, e.g. {@code https://api.example.com}; batches go to {@code {base}/internal/webhooks/batch}. */
    Optional<String> baseUrl();

    /** Bearer token the buffer presents to the origin. Never logged. */
    Optional<String> token();
}
