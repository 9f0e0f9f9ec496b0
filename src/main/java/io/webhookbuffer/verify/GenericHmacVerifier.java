package io.webhookbuffer.verify;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import io.webhookbuffer.common.Hex;
import io.webhookbuffer.common.Hmac;
import io.webhookbuffer.verify.SignatureScheme.Algorithm;

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
        VerificationFailure refused = refused(header, secrets);
        if (refused != null) {
            return refused;
        }
        byte[] provided = Hex.decode(header.strip());
        boolean match = false;
        for (String secret : secrets) {
            // Every secret is tried, with no early exit, so timing does not reveal which one matched.
            match |= Hmac.constantTimeEquals(provided, Hmac.hmacSha256(secret, rawBody));
        }
        return match ? VerificationFailure.NONE : VerificationFailure.BAD_SIGNATURE;
    }

    @Override
    public BodyCheck bodyCheck(Function<String, String> headers, List<String> secrets, long receivedAtMillis) {
        String header = headers.apply(SIGNATURE_HEADER);
        VerificationFailure refused = refused(header, secrets);
        if (refused != null) {
            return BodyCheck.refused(refused);
        }
        List<byte[]> keys = new ArrayList<>(secrets.size());
        for (String secret : secrets) {
            keys.add(secret.getBytes(StandardCharsets.UTF_8));
        }
        return new BodyCheck(Algorithm.SHA256, keys, new byte[0][], new byte[0][],
                List.of(Hex.decode(header.strip())));
    }

    /** Why the request is refused before any MAC (no, or a malformed, signature; no secret), or null. */
    private static VerificationFailure refused(String header, List<String> secrets) {
        if (header == null || header.isEmpty()) {
            return VerificationFailure.MISSING_SIGNATURE;
        }
        String trimmed = header.strip();
        // The contract is lowercase hex; uppercase is refused rather than normalised so that two
        // encodings of one signature never both pass.
        if (trimmed.length() != SHA256_HEX_LENGTH || !isLowerHex(trimmed)) {
            return VerificationFailure.MALFORMED_SIGNATURE;
        }
        if (secrets == null || secrets.isEmpty()) {
            // Failure policy: fail closed. A tenant without a secret accepts nothing; there is no fallback secret.
            return VerificationFailure.NO_SECRET;
        }
        return null;
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
