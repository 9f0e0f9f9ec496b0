package io.webhookbuffer.verify;

import java.nio.charset.StandardCharsets;
import java.security.PublicKey;
import java.util.List;
import java.util.function.Function;

import io.webhookbuffer.common.Hex;
import io.webhookbuffer.verify.PublicKeys.Algorithm;
import io.webhookbuffer.verify.PublicKeys.Format;

/**
 * A provider that signs {@code timestamp + body} with its private key; the tenant's "secrets" are the provider's
 * public verification keys (several during a rotation).
 * <ul>
 * <li>SendGrid's signed Event Webhook: {@code X-Twilio-Email-Event-Webhook-Signature} is the base64 DER ECDSA P-256
 * (SHA-256) signature, {@code X-Twilio-Email-Event-Webhook-Timestamp} the signed timestamp; the key is base64 of its
 * DER SubjectPublicKeyInfo, as SendGrid shows it. No dedupe id (the body is an array of events): sha256(body).</li>
 * <li>Discord interactions: {@code X-Signature-Ed25519} is the hex Ed25519 signature, {@code X-Signature-Timestamp}
 * the signed timestamp; the key is the application's hex public key. The dedupe id is the body's {@code id}.</li>
 * </ul>
 * Everything refusable without curve arithmetic is refused first: a missing header, a signature of the wrong encoding
 * or size (bounded before it is decoded), a malformed or stale timestamp. Keys are parsed once per value
 * ({@link PublicKeys}); one that does not parse is skipped (the tenant command refuses it up front).
 */
public final class PublicKeyVerifier implements SignatureVerifier {

    /** Which provider's headers, encodings and key format. */
    public enum Kind {
        SENDGRID("X-Twilio-Email-Event-Webhook-Signature", "X-Twilio-Email-Event-Webhook-Timestamp",
                Algorithm.ECDSA_P256_SHA256, Format.P256_SPKI_BASE64, null),
        DISCORD("X-Signature-Ed25519", "X-Signature-Timestamp", Algorithm.ED25519, Format.ED25519_HEX, "id");

        final List<String> signatureHeader;
        final List<String> timestampHeader;
        final Algorithm algorithm;
        final Format format;
        final String dedupeBodyField;

        Kind(String signatureHeader, String timestampHeader, Algorithm algorithm, Format format, String dedupeBodyField) {
            this.signatureHeader = List.of(signatureHeader);
            this.timestampHeader = List.of(timestampHeader);
            this.algorithm = algorithm;
            this.format = format;
            this.dedupeBodyField = dedupeBodyField;
        }
    }

    /** Base64 of 72 bytes is 96 characters; hex of 64 bytes is 128. Longer headers are refused undecoded. */
    private static final int MAX_SIGNATURE_CHARS = 128;

    private final Kind kind;
    private final int toleranceSeconds;

    public PublicKeyVerifier(Kind kind, int toleranceSeconds) {
        if (toleranceSeconds < 1 || toleranceSeconds > SignatureScheme.MAX_TOLERANCE_SECONDS) {
            throw new IllegalArgumentException("the tolerance must be from 1 to " + SignatureScheme.MAX_TOLERANCE_SECONDS
                    + " seconds");
        }
        this.kind = kind;
        this.toleranceSeconds = toleranceSeconds;
    }

    @Override
    public VerificationFailure verify(Function<String, String> headers, byte[] rawBody, List<String> secrets,
            long receivedAtMillis) {
        String header = SignatureText.first(headers, kind.signatureHeader);
        if (header == null) {
            return VerificationFailure.MISSING_SIGNATURE;
        }
        byte[] signature = decode(header);
        String ts = SignatureText.first(headers, kind.timestampHeader);
        long timestamp = SignatureText.parseTimestamp(ts);
        if (signature == null || timestamp < 0) {
            return VerificationFailure.MALFORMED_SIGNATURE;
        }
        if (!fresh(timestamp, receivedAtMillis, toleranceSeconds)) {
            // Before any signature check, so an old or invented timestamp costs no curve arithmetic.
            return VerificationFailure.STALE_TIMESTAMP;
        }
        if (secrets == null || secrets.isEmpty()) {
            return VerificationFailure.NO_SECRET;
        }
        byte[] signed = ts.getBytes(StandardCharsets.US_ASCII);
        for (String secret : secrets) {
            PublicKey key = PublicKeys.key(kind.format, secret);
            // A public key hides nothing, so an early exit tells an attacker nothing about any secret.
            if (key != null && PublicKeys.verify(kind.algorithm, key, signature, signed, rawBody)) {
                return VerificationFailure.NONE;
            }
        }
        return VerificationFailure.BAD_SIGNATURE;
    }

    @Override
    public String dedupeId(Function<String, String> headers, byte[] rawBody) {
        if (kind.dedupeBodyField == null) {
            return null;
        }
        String id = JsonFields.text(rawBody, kind.dedupeBodyField);
        return id == null || id.isBlank() ? null : id.strip();
    }

    /** The id comes from the body, which the signature covers. */
    @Override
    public boolean signsDedupeId(Function<String, String> headers, byte[] rawBody) {
        return kind.dedupeBodyField != null;
    }

    @Override
    public boolean costly(List<String> secrets) {
        return true;
    }

    /** The signature bytes, or null when the header is too long, of the wrong encoding or of the wrong size. */
    private byte[] decode(String header) {
        if (header.length() > MAX_SIGNATURE_CHARS) {
            return null;
        }
        if (kind.algorithm == Algorithm.ED25519) {
            byte[] raw = Hex.decode(header);
            return raw != null && raw.length == Algorithm.ED25519.maxSignatureBytes ? raw : null;
        }
        byte[] der = SignatureText.base64(header);
        return PublicKeys.isDerEcdsaSignature(der) ? der : null;
    }

    /** Both directions: a timestamp (epoch seconds) from the future is as suspect as an old one. */
    static boolean fresh(long timestampSeconds, long receivedAtMillis, int toleranceSeconds) {
        return timestampSeconds <= Long.MAX_VALUE / 1000
                && Math.abs(receivedAtMillis - timestampSeconds * 1000) <= toleranceSeconds * 1000L;
    }
}
