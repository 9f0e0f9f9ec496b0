package io.webhookbuffer.verify;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;
import java.util.function.Function;

import javax.crypto.Mac;

import io.webhookbuffer.common.Hex;
import io.webhookbuffer.verify.SignatureScheme.Algorithm;

/**
 * Mailgun: the JSON body carries {@code "signature": {"timestamp", "token", "signature"}}, where {@code signature} is
 * the hex HMAC-SHA256, keyed with the webhook signing key, of {@code timestamp + token} (no separator). A subaccount's
 * event also carries {@code parent-signature}, the same under the primary account's key; either may match.
 *
 * <p>The signature covers the timestamp and the token, not the event: one captured request's signature block fits
 * any body. So the token is the dedupe id (never bound to the body): a request that reuses an accepted token, with
 * the same body or another, is answered as a duplicate within the dedupe retention and never stored twice, and the
 * timestamp tolerance bounds how long a captured block is usable at all.
 */
public final class MailgunVerifier implements SignatureVerifier {

    /** Mailgun's tokens are 50 characters; a longer one is not Mailgun's and costs no HMAC. */
    static final int MAX_TOKEN_LENGTH = 256;
    private static final String OBJECT = "signature";
    private static final String[] FIELDS = { "timestamp", "token", "signature", "parent-signature" };
    private static final int TIMESTAMP = 0;
    private static final int TOKEN = 1;
    private static final int SIGNATURE = 2;
    private static final int PARENT = 3;

    private final int toleranceSeconds;

    public MailgunVerifier(int toleranceSeconds) {
        if (toleranceSeconds < 1 || toleranceSeconds > SignatureScheme.MAX_TOLERANCE_SECONDS) {
            throw new IllegalArgumentException("the tolerance must be from 1 to " + SignatureScheme.MAX_TOLERANCE_SECONDS
                    + " seconds");
        }
        this.toleranceSeconds = toleranceSeconds;
    }

    @Override
    public VerificationFailure verify(Function<String, String> headers, byte[] rawBody, List<String> secrets,
            long receivedAtMillis) {
        String[] fields = JsonFields.texts(rawBody, OBJECT, FIELDS);
        VerificationFailure refused = refusedUnsigned(fields, receivedAtMillis);
        if (refused != null) {
            return refused;
        }
        if (secrets == null || secrets.isEmpty()) {
            return VerificationFailure.NO_SECRET;
        }
        return matches(fields, secrets) ? VerificationFailure.NONE : VerificationFailure.BAD_SIGNATURE;
    }

    /** What is refused before any HMAC: a missing or malformed signature block, a stale timestamp; else null. */
    private VerificationFailure refusedUnsigned(String[] fields, long receivedAtMillis) {
        if (fields[SIGNATURE] == null && fields[PARENT] == null) {
            // Not JSON, no "signature" object, or no signature in it.
            return VerificationFailure.MISSING_SIGNATURE;
        }
        long timestamp = SignatureText.parseTimestamp(fields[TIMESTAMP]);
        if (!wellFormed(fields[SIGNATURE]) || !wellFormed(fields[PARENT]) || !isToken(fields[TOKEN]) || timestamp < 0) {
            return VerificationFailure.MALFORMED_SIGNATURE;
        }
        if (!PublicKeyVerifier.fresh(timestamp, receivedAtMillis, toleranceSeconds)) {
            return VerificationFailure.STALE_TIMESTAMP;
        }
        return null;
    }

    private static boolean matches(String[] fields, List<String> secrets) {
        byte[] signature = decode(fields[SIGNATURE]);
        byte[] parent = decode(fields[PARENT]);
        byte[] ts = fields[TIMESTAMP].getBytes(StandardCharsets.US_ASCII);
        byte[] token = fields[TOKEN].getBytes(StandardCharsets.US_ASCII);
        boolean match = false;
        for (String secret : secrets) {
            byte[] key = secret.getBytes(StandardCharsets.UTF_8);
            if (key.length == 0) {
                continue;
            }
            Mac mac = Macs.init(Algorithm.SHA256, key);
            mac.update(ts);
            mac.update(token);
            byte[] expected = mac.doFinal();
            // No early exit: the time taken does not say which secret or which signature matched.
            match |= signature != null && MessageDigest.isEqual(expected, signature);
            match |= parent != null && MessageDigest.isEqual(expected, parent);
        }
        return match;
    }

    /** The token: the replay guard (see the class comment). */
    @Override
    public String dedupeId(Function<String, String> headers, byte[] rawBody) {
        String token = JsonFields.texts(rawBody, OBJECT, FIELDS[TOKEN])[0];
        return isToken(token) ? token : null;
    }

    /** The token is signed; it must not be bound to the body, which the signature does not cover. */
    @Override
    public boolean signsDedupeId(Function<String, String> headers, byte[] rawBody) {
        return true;
    }

    /** Absent, or 32 bytes of hex. */
    private static boolean wellFormed(String hex) {
        return hex == null || decode(hex) != null;
    }

    private static byte[] decode(String hex) {
        byte[] mac = hex == null ? null : Hex.decode(hex);
        return mac != null && mac.length == Algorithm.SHA256.macLength ? mac : null;
    }

    /** 1 to 256 printable ASCII characters (Mailgun's are 50 hex digits). */
    private static boolean isToken(String token) {
        if (token == null || token.isEmpty() || token.length() > MAX_TOKEN_LENGTH) {
            return false;
        }
        for (int i = 0; i < token.length(); i++) {
            if (token.charAt(i) < 0x21 || token.charAt(i) > 0x7e) {
                return false;
            }
        }
        return true;
    }
}
