package io.webhookbuffer.ingress;

import java.time.Duration;
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

    /**
     * Body bytes the requests in flight on this replica may hold at once, all tenants together: taken when a request
     * is admitted (its {@code Content-Length}, or chunk by chunk) and given back with its answer. A request that
     * does not fit is answered 503 with {@code Retry-After} before more of its body is read. At least
     * {@code quarkus.http.limits.max-body-size}, so that the largest body can always be taken alone.
     */
    @WithDefault("67108864")
    long maxInFlightBytes();

    /** Time a sender has, from the end of the request head, to send the whole body (408 and the connection closed). */
    @WithDefault("30s")
    Duration bodyTimeout();

    /** Most header lines a request may carry (431 beyond); the bytes of the head are capped by Quarkus. */
    @WithDefault("100")
    int maxHeaderCount();
}
