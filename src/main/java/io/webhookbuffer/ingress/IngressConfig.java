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
     * Body bytes the requests in flight on this replica may hold at once, divided between tenants: a tenant may hold
     * at most half of what the others leave ({@code FairShare}), so bodies aimed at one tenant leave at least half to
     * the rest. A body is charged for the room its arrived bytes are read into, never for the {@code Content-Length}
     * it declares: the room grows before it doubles, from 16 KiB up to the declared length or the tenant's limit, so
     * up to twice the bytes that arrived (a body its headers refused already is not kept, and counts as it arrives);
     * given back with the answer. A request past its tenant's share is answered 503 {@code replica_busy} with
     * {@code Retry-After} before more of its body is read. At least twice {@code quarkus.http.limits.max-body-size},
     * so that a tenant alone (half) can always take the largest body.
     */
    @WithDefault("67108864")
    long maxInFlightBytes();

    /** Time a sender has, from the end of the request head, to send the whole body (408 and the connection closed). */
    @WithDefault("30s")
    Duration bodyTimeout();

    /**
     * The webhook port, the one the internet reaches ({@link EdgePort}); {@code 0}: a free port (the tests). Quarkus's
     * own HTTP server ({@code quarkus.http.port}) listens on loopback only.
     */
    @WithDefault("8080")
    int port();

    /** The interface the webhook port listens on. */
    @WithDefault("0.0.0.0")
    String host();

    /**
     * Time a connection has to deliver its first complete request head, from being accepted (closed without an answer
     * past it). Without it a head may take {@code quarkus.http.idle-timeout}; a kept-alive connection has the idle
     * timeout for its next head.
     */
    @WithDefault("10s")
    Duration headTimeout();

    /**
     * Connections open on the webhook port at once. The next ones, up to a tenth more (at least 16), are answered
     * {@code 503 too_many_connections} with {@code Retry-After} as soon as their head is in, and closed; past that a
     * connection is closed as it is accepted.
     */
    @WithDefault("1000")
    int maxConnections();

    /** The signature check: what a bad signature may cost (README "What an unauthenticated request costs"). */
    Verification verification();

    /** {@code buffer.ingress.verification.*}. */
    interface Verification {

        /**
         * Bodies of at least this many bytes are verified on the verification pool, never on the event loop; smaller
         * ones inline, where an HMAC costs less than the hop to a worker thread (about 1 µs per KiB and secret).
         */
        @WithDefault("65536")
        int offloadBytes();

        /** Threads of the verification pool (each MACs one body at a time). */
        @WithDefault("2")
        int threads();

        /**
         * Verifications waiting for or running on the pool at once, divided between tenants: a tenant may hold half of
         * what the others leave; one more of its own is answered 503 {@code verification_busy} with {@code Retry-After}
         * before its MAC.
         */
        @WithDefault("64")
        int maxPending();
    }
}
