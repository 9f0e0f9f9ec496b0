package io.webhookbuffer.controlplane;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;
import java.util.regex.Pattern;

import io.webhookbuffer.common.Hmac;

/**
 * The pure part of command authentication: header shapes, the timestamp window and the HMAC, in both directions
 * (commands to the buffer, pushes from it). Claiming the nonce (the part that needs Redis) is {@link NonceGuard}'s.
 *
 * <p>Two formats, told apart by the {@code x-signature} value itself, so neither can be read as the other:
 * <ul>
 * <li>v1 (the seed's contract): base64url without padding (RFC 4648 §5; the padded form is accepted too) of
 * HMAC-SHA256(secret, "{timestamp}.{nonce}.{rawBody}"). It binds neither the method, the path nor the direction.
 * <li>v2: {@code v2=} then base64url without padding of HMAC-SHA256(secret, the lines {@code webhook-buffer-v2},
 * the direction ({@code command} or {@code push}), the method, the request target (path and query exactly as sent),
 * the timestamp and the nonce, each ended by a newline, then the raw body). A v1 message starts with a digit and a v2
 * message with {@code w}, so no v1 signature is ever a valid v2 one; the direction line keeps a push from verifying
 * as a command and the other way round.
 * </ul>
 */
public final class CommandSignature {

    /** Which way a signed request travels; its label is a line of the v2 message. */
    public enum Direction {
        /** From the control plane (or the CLI) to the buffer's {@code /control/...}. */
        COMMAND("command"),
        /** From the buffer up to {@code buffer.control.url}. */
        PUSH("push");

        private final String label;

        Direction(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }

    /** A signed request as the verifier sees it: the method, the request target as sent, the three headers, the body. */
    public record SignedRequest(String method, String target, String timestamp, String nonce, String signature,
            byte[] body) {
    }

    /** The prefix of a v2 {@code x-signature} value. */
    public static final String V2_PREFIX = "v2=";
    /** The first line of a v2 message. */
    public static final String V2_TAG = "webhook-buffer-v2";

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Pattern NONCE = Pattern.compile("^[A-Za-z0-9_-]{16,128}$");
    private static final Pattern TIMESTAMP = Pattern.compile("^[0-9]{1,12}$");
    private static final Pattern V1_SIGNATURE = Pattern.compile("^[A-Za-z0-9_-]{43}={0,1}$");
    private static final Pattern V2_SIGNATURE = Pattern.compile("^v2=[A-Za-z0-9_-]{43}$");
    /** A method token (RFC 9110 §9.1) and a request target without whitespace or line breaks. */
    private static final Pattern METHOD = Pattern.compile("^[A-Z]{1,16}$");
    private static final Pattern TARGET = Pattern.compile("^/[\\x21-\\x7e]*$");

    private CommandSignature() {
    }

    /** 2 when the {@code x-signature} value is in the v2 form (starts with {@code v2=}), else 1. */
    public static int version(String signature) {
        return signature != null && signature.startsWith(V2_PREFIX) ? 2 : 1;
    }

    /**
     * @return null when the request is authentic and fresh for {@code direction}, else the refusal reason (the nonce
     *         is not yet claimed). A v1 signature is refused as {@link Refusal#V1_REFUSED} unless {@code acceptV1}.
     */
    public static Refusal check(List<String> secrets, Direction direction, SignedRequest request, long nowEpochSeconds,
            long toleranceSeconds, boolean acceptV1) {
        if (secrets.isEmpty()) {
            return Refusal.NOT_CONFIGURED;
        }
        if (isBlank(request.signature())) {
            return Refusal.MISSING_HEADERS;
        }
        if (version(request.signature()) == 1) {
            return checkV1(secrets, request, nowEpochSeconds, toleranceSeconds, acceptV1);
        }
        Refusal shape = shapeAndFreshness(request.timestamp(), request.nonce(), request.signature(), V2_SIGNATURE,
                nowEpochSeconds, toleranceSeconds);
        if (shape != null) {
            return shape;
        }
        if (!METHOD.matcher(request.method()).matches() || !TARGET.matcher(request.target()).matches()) {
            return Refusal.BAD_SIGNATURE; // nothing well formed could have signed it
        }
        byte[] provided = Base64.getUrlDecoder().decode(request.signature().substring(V2_PREFIX.length()));
        byte[] head = v2Head(direction, request.method(), request.target(), request.timestamp(), request.nonce());
        boolean match = false;
        for (String secret : secrets) {
            match |= Hmac.constantTimeEquals(provided, Hmac.hmacSha256(secret, head, request.body()));
        }
        return match ? null : Refusal.BAD_SIGNATURE;
    }

    private static Refusal checkV1(List<String> secrets, SignedRequest request, long nowEpochSeconds,
            long toleranceSeconds, boolean acceptV1) {
        if (!acceptV1) {
            // Say so only for what is a v1 signature; anything else is simply malformed.
            return V1_SIGNATURE.matcher(request.signature()).matches() ? Refusal.V1_REFUSED : Refusal.MISSING_HEADERS;
        }
        return check(secrets, request.timestamp(), request.nonce(), request.signature(), request.body(),
                nowEpochSeconds, toleranceSeconds);
    }

    /**
     * The v1 check alone (the seed's format: timestamp, nonce and body, nothing else).
     *
     * @return null when the command is authentic and fresh, else the refusal reason (the nonce is not yet claimed)
     */
    public static Refusal check(List<String> secrets, String timestamp, String nonce, String signature, byte[] body,
            long nowEpochSeconds, long toleranceSeconds) {
        if (secrets.isEmpty()) {
            return Refusal.NOT_CONFIGURED;
        }
        Refusal shape = shapeAndFreshness(timestamp, nonce, signature, V1_SIGNATURE, nowEpochSeconds, toleranceSeconds);
        if (shape != null) {
            return shape;
        }
        byte[] provided = Base64.getUrlDecoder().decode(signature.endsWith("=") ? signature.substring(0, 43) : signature);
        byte[] prefix = (timestamp + "." + nonce + ".").getBytes(StandardCharsets.US_ASCII);
        boolean match = false;
        for (String secret : secrets) {
            match |= Hmac.constantTimeEquals(provided, Hmac.hmacSha256(secret, prefix, body));
        }
        return match ? null : Refusal.BAD_SIGNATURE;
    }

    private static Refusal shapeAndFreshness(String timestamp, String nonce, String signature, Pattern signatureShape,
            long nowEpochSeconds, long toleranceSeconds) {
        if (isBlank(timestamp) || isBlank(nonce) || isBlank(signature)) {
            return Refusal.MISSING_HEADERS;
        }
        if (!TIMESTAMP.matcher(timestamp).matches() || !NONCE.matcher(nonce).matches()
                || !signatureShape.matcher(signature).matches()) {
            return Refusal.MISSING_HEADERS;
        }
        return Math.abs(nowEpochSeconds - Long.parseLong(timestamp)) > toleranceSeconds ? Refusal.STALE_TIMESTAMP : null;
    }

    /** Signs in the seed's v1 format: {@code x-signature} = base64url(HMAC(secret, "{timestamp}.{nonce}.{body}")). */
    public static String signV1(String secret, String timestamp, String nonce, byte[] body) {
        byte[] mac = Hmac.hmacSha256(secret, (timestamp + "." + nonce + ".").getBytes(StandardCharsets.US_ASCII), body);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(mac);
    }

    /**
     * Signs in the v2 format (used by the buffer's pushes, the CLI, the demo control plane, the bench and the tests).
     *
     * @param target the request target exactly as it goes on the wire: the raw path, and {@code ?} and the raw query
     *        when there is one (see {@link #target(URI)})
     * @return the {@code x-signature} value, {@code v2=...}
     */
    public static String signV2(String secret, Direction direction, String method, String target, String timestamp,
            String nonce, byte[] body) {
        if (!METHOD.matcher(method).matches() || !TARGET.matcher(target).matches()) {
            throw new IllegalArgumentException("a v2 signature needs an upper-case method and a target that starts with"
                    + " / and holds no space or control character (percent-encode them)");
        }
        byte[] mac = Hmac.hmacSha256(secret, v2Head(direction, method, target, timestamp, nonce), body);
        return V2_PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(mac);
    }

    /** The signed request target of {@code uri}: its raw path ({@code /} when empty), then {@code ?raw query} if any. */
    public static String target(URI uri) {
        String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
        String query = uri.getRawQuery();
        return query == null || query.isEmpty() ? path : path + "?" + query;
    }

    /** The v2 message up to the body: six lines, each ended by a newline. */
    private static byte[] v2Head(Direction direction, String method, String target, String timestamp, String nonce) {
        return (V2_TAG + "\n" + direction.label() + "\n" + method + "\n" + target + "\n" + timestamp + "\n" + nonce
                + "\n").getBytes(StandardCharsets.US_ASCII);
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
