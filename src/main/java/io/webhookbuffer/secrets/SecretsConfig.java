package io.webhookbuffer.secrets;

import java.util.List;
import java.util.Optional;

import io.smallrye.config.ConfigMapping;

/**
 * The keys that seal tenant secrets at rest ({@code buffer.secrets.*}). Required outside local mode: without a key the
 * service refuses to start. Never logged.
 */
@ConfigMapping(prefix = "buffer.secrets")
public interface SecretsConfig {

    /**
     * Every key that may open a stored value, each {@code <id>:<base64 of 32 bytes>}, comma-separated. During a
     * rotation both the old and the new key are listed.
     */
    Optional<List<String>> keys();

    /** The id of the key new values are sealed under; may be omitted when one key is listed. */
    Optional<String> activeKey();
}
