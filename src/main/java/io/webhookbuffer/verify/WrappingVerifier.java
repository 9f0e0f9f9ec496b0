package io.webhookbuffer.verify;

import java.util.List;
import java.util.function.Function;

/**
 * A verifier that adds one thing to a scheme (a handshake, a cheap refusal) and hands everything else to it: the
 * signature, the dedupe id and whether it is signed, the cost, the handshake, the check as the body arrives.
 * Subclasses override what they add; one that overrides {@link #verify} overrides {@link #bodyCheck} too (null, or a
 * check that says what its verify says).
 */
abstract class WrappingVerifier implements SignatureVerifier {

    protected final SignatureVerifier scheme;

    WrappingVerifier(SignatureVerifier scheme) {
        this.scheme = scheme;
    }

    @Override
    public VerificationFailure verify(Function<String, String> headers, byte[] rawBody, List<String> secrets,
            long receivedAtMillis) {
        return scheme.verify(headers, rawBody, secrets, receivedAtMillis);
    }

    @Override
    public BodyCheck bodyCheck(Function<String, String> headers, List<String> secrets, long receivedAtMillis) {
        return scheme.bodyCheck(headers, secrets, receivedAtMillis);
    }

    @Override
    public String dedupeId(Function<String, String> headers, byte[] rawBody) {
        return scheme.dedupeId(headers, rawBody);
    }

    @Override
    public boolean signsDedupeId(Function<String, String> headers, byte[] rawBody) {
        return scheme.signsDedupeId(headers, rawBody);
    }

    @Override
    public List<String> volatileFields() {
        return scheme.volatileFields();
    }

    @Override
    public boolean costly(List<String> secrets) {
        return scheme.costly(secrets);
    }

    @Override
    public HandshakeAnswer handshake(Function<String, String> headers, byte[] rawBody, List<String> secrets,
            long receivedAtMillis) {
        return scheme.handshake(headers, rawBody, secrets, receivedAtMillis);
    }
}
