package io.webhookbuffer.ingress;

import java.util.List;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** The ingest endpoint ({@code buffer.ingress.*}). */
@ConfigMapping(prefix = "buffer.ingress")
public interface IngressConfig {

    /**
     * Largest body accepted for a tenant without its own {@code maxBodyBytes} (413 beyond). The hard ceiling for
     * every tenant is {@code quarkus.http.limits.max-body-size}, enforced before the body is read.
     */
    @WithDefault("1048576")
    int maxBodyBytes();

    /**
     * Request headers kept with the event for the origin (case-insensitive). Headers that carry credentials
     * (any name containing signature, authorization, token, secret, hmac, cookie or api-key) are never kept,
     * even when listed.
     */
    @WithDefault("user-agent,x-event-type,x-request-id")
    List<String> forwardHeaders();
}
