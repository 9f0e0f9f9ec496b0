package io.webhookbuffer.controlplane;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;
import java.util.regex.Pattern;

import io.webhookbuffer.common.Hmac;

/**
 * The pure part of command authentication: header shapes, the timestamp window and the HMAC. Claiming the nonce
 * (the part that needs Redis) is {@link NonceGuard}'s.
 *
 * <p>Signature: base64url without padding (RFC 4648 §5) of HMAC-SHA256(secret, "{timestamp}.{nonce}.{rawBody}");
 * the padded form is accepted too.
 */
public final class CommandSignature {

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Pattern NONCE = Pattern.compile("^[A-Za-z0-9_-]{16,128}$");
    private static final Pattern TIMESTAMP = Pattern.compile("^[0-9]{1,12}$");
    private static final Pattern SIGNATURE = Pattern.compile("^[A-Za-z0-9_-]{43}={0,1}$");

    private CommandSignature() {
    }

    /**
     * @return null when the command is authentic and fresh, else the refusal reason (the nonce is not yet claimed)
     */
    public static Refusal check(List<String> secrets, String timestamp, String nonce, String signature, byte[] body,
            long nowEpochSeconds, long toleranceSeconds) {
        if (secrets.isEmpty()) {
            return Refusal.NOT_CONFIGURED;
        }
        if (isBlank(timestamp) || isBlank(nonce) || isBlank(signature)) {
            return Refusal.MISSING_HEADERS;
        }
        if (!TIMESTAMP.matcher(timestamp).matches() || !NONCE.matcher(nonce).matches()
                || !SIGNATURE.matcher(signature).matches()) {
            return Refusal.MISSING_HEADERS;
        }
        long ts = Long.parseLong(timestamp);
        if (Math.abs(nowEpochSeconds - ts) > toleranceSeconds) {
            return Refusal.STALE_TIMESTAMP;
        }
        byte[] provided = Base64.getUrlDecoder().decode(signature.endsWith("=") ? signature.substring(0, 43) : signature);
        byte[] prefix = (timestamp + "." + nonce + ".").getBytes(StandardCharsets.US_ASCII);
        boolean match = false;
        for (String secret : secrets) {
            match |= Hmac.constantTimeEquals(provided, Hmac.hmacSha256(secret, prefix, body));
        }
        return match ? null : Refusal.BAD_SIGNATURE;
    }

    /** Signs a command the way the control plane must (used by tests, the CLI and the demo control plane). */
    public static String sign(String secret, String timestamp, String nonce, byte[] body) {
        byte[] mac = Hmac.hmacSha256(secret, (timestamp + "." + nonce + ".").getBytes(StandardCharsets.US_ASCII), body);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(mac);
    }

    /** A fresh nonce: 18 random bytes, base64url (24 characters). */
    public static String newNonce() {
        byte[] bytes = new byte[18];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    private static boolean isBlank(String s) {
        return s == null || s.isBlank();
    }
}
