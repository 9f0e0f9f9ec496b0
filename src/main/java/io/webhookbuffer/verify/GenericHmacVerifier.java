package io.webhookbuffer.verify;

import java.util.List;
import java.util.function.Function;

import io.webhookbuffer.common.Hex;
import io.webhookbuffer.common.Hmac;

/**
 * The generic scheme: {@code X-Signature} is the lowercase hex HMAC-SHA256 of the raw body;
 * {@code X-Event-ID}, when present, is the dedupe key.
 */
public final class GenericHmacVerifier implements SignatureVerifier {

    public static final String SIGNATURE_HEADER = "X-Signature";
    public static final String EVENT_ID_HEADER = "X-Event-ID";
    private static final int SHA256_HEX_LENGTH = 64;

    @Override
    public VerificationFailure verify(Function<String, String> headers, byte[] rawBody, List<String> secrets,
            long receivedAtMillis) {
        String header = headers.apply(SIGNATURE_HEADER);
        if (header == null || header.isEmpty()) {
            return VerificationFailure.MISSING_SIGNATURE;
        }
        String trimmed = header.strip();
        // The contract is lowercase hex; uppercase is refused rather than normalised so that two
        // encodings of one signature never both pass.
        byte[] provided = trimmed.length() == SHA256_HEX_LENGTH && isLowerHex(trimmed) ? Hex.decode(trimmed) : null;
        if (provided == null) {
            return VerificationFailure.MALFORMED_SIGNATURE;
        }
        if (secrets == null || secrets.isEmpty()) {
            // Failure policy: fail closed. A tenant without a secret accepts nothing; there is no fallback secret.
            return VerificationFailure.NO_SECRET;
        }
        boolean match = false;
        for (String secret : secrets) {
            // Every secret is tried, with no early exit, so timing does not reveal which one matched.
            match |= Hmac.constantTimeEquals(provided, Hmac.hmacSha256(secret, rawBody));
        }
        return match ? VerificationFailure.NONE : VerificationFailure.BAD_SIGNATURE;
    }

    @Override
    public String dedupeId(Function<String, String> headers, byte[] rawBody) {
        String id = headers.apply(EVENT_ID_HEADER);
        return id == null || id.isBlank() ? null : id.strip();
    }

    private static boolean isLowerHex(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
                return false;
            }
        }
        return true;
    }
}
