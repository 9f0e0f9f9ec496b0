package io.webhookbuffer.verify;

import java.util.List;
import java.util.function.Function;

/** One provider's signature scheme. Implementations are immutable and thread-safe. */
public interface SignatureVerifier {

    /**
     * @param headers reads a request header by (case-insensitive) name; returns null when absent
     * @param rawBody the exact bytes the provider sent
     * @param secrets the tenant's active secrets, current first; any match accepts (rotation)
     * @param receivedAtMillis when the request arrived (epoch ms): signed timestamps are checked against it
     * @return {@link VerificationFailure#NONE} when a secret matches (and a signed timestamp is fresh), else why not
     */
    VerificationFailure verify(Function<String, String> headers, byte[] rawBody, List<String> secrets,
            long receivedAtMillis);

    /** {@link #verify(Function, byte[], List, long)} against the current time. */
    default VerificationFailure verify(Function<String, String> headers, byte[] rawBody, List<String> secrets) {
        return verify(headers, rawBody, secrets, System.currentTimeMillis());
    }

    /** The provider's own id for this event, or null when there is none (the caller then uses the body hash). */
    String dedupeId(Function<String, String> headers, byte[] rawBody);

    /**
     * For a request that {@link #verify verified}: the answer to a provider's endpoint handshake (Slack's
     * {@code url_verification}, Zoom's {@code endpoint.url_validation}), or null when the request is an event. A
     * handshake is answered and never buffered.
     */
    default HandshakeAnswer handshake(Function<String, String> headers, byte[] rawBody, List<String> secrets,
            long receivedAtMillis) {
        return null;
    }
}
