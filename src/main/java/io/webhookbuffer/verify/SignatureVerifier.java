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

    /**
     * A check of this request's signature that takes the body apart from the request ({@link BodyCheck}), or null when the
     * scheme needs the whole body first (a timestamp or an id inside it, a public key, a check of the body's shape).
     * What it finally says equals what {@link #verify} says of the same request and body. Null by default.
     */
    default BodyCheck bodyCheck(Function<String, String> headers, List<String> secrets, long receivedAtMillis) {
        return null;
    }

    /** The provider's own id for this event, or null when there is none (the caller then uses the body hash). */
    String dedupeId(Function<String, String> headers, byte[] rawBody);

    /**
     * Whether the signature covers the id {@link #dedupeId} returns for this request: true for an id read from the
     * signed body or from a header the signed content includes. An id it does not cover is bound to the body by the
     * caller, so that a captured request re-sent with a guessed future id cannot make the genuine event a duplicate.
     * False by default: an id is trusted only where a scheme says its signature covers it.
     */
    default boolean signsDedupeId(Function<String, String> headers, byte[] rawBody) {
        return false;
    }

    /**
     * Top-level fields of a JSON body that the provider's own retry of one event changes: the send time it signs in
     * the body (Linear's {@code webhookTimestamp}, a custom scheme's {@code timestampField}). The body hash in the
     * dedupe key leaves their values out, so a retry signed anew is still the same event (docs/providers.md "What a
     * provider's retry changes"). Empty by default: a retry that repeats the body needs nothing left out.
     */
    default List<String> volatileFields() {
        return List.of();
    }

    /**
     * For a request that {@link #verify verified}: the answer to a provider's endpoint handshake (Slack's
     * {@code url_verification}, Zoom's {@code endpoint.url_validation}), or null when the request is an event. A
     * handshake is answered and never buffered.
     */
    default HandshakeAnswer handshake(Function<String, String> headers, byte[] rawBody, List<String> secrets,
            long receivedAtMillis) {
        return null;
    }

    /**
     * Whether checking a request costs more than a hop to a worker thread whatever the body's size (a public-key
     * signature: tens to hundreds of microseconds), given the tenant's secrets. The ingest path then verifies it on
     * the verification pool, within the tenant's share of it, never on the event loop. False by default (an HMAC).
     */
    default boolean costly(List<String> secrets) {
        return false;
    }
}
