package io.webhookbuffer.verify;

import java.util.List;
import java.util.function.Function;

/**
 * A scheme whose events are always JSON objects and whose endpoint check signs attacker-chosen text with the same
 * secret and MAC (X's CRC: {@link QueryHandshake}). A body whose first byte is not {@code '{'} is refused before any
 * MAC, and no CRC token (its alphabet has no brace) is such a body, so a CRC answer can never verify as an event.
 */
final class JsonObjectOnlyVerifier extends WrappingVerifier {

    private final List<String> signatureHeaders;

    JsonObjectOnlyVerifier(SignatureVerifier scheme, List<String> signatureHeaders) {
        super(scheme);
        this.signatureHeaders = signatureHeaders;
    }

    /** None: {@link #verify} looks at more than the scheme's MAC. */
    @Override
    public BodyCheck bodyCheck(Function<String, String> headers, List<String> secrets, long receivedAtMillis) {
        return null;
    }

    @Override
    public VerificationFailure verify(Function<String, String> headers, byte[] rawBody, List<String> secrets,
            long receivedAtMillis) {
        if (SignatureText.first(headers, signatureHeaders) == null) {
            return VerificationFailure.MISSING_SIGNATURE;
        }
        if (rawBody.length == 0 || rawBody[0] != '{') {
            return VerificationFailure.BAD_SIGNATURE;
        }
        return scheme.verify(headers, rawBody, secrets, receivedAtMillis);
    }
}
