package io.webhookbuffer.verify;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

import io.webhookbuffer.common.Hmac;

/**
 * A provider's endpoint check by {@code GET} with query parameters, before it sends any event: Meta's subscription
 * verification, X's challenge-response check (CRC) and Dropbox's verification request. Unlike a POST handshake there is
 * no signature to verify first, so everything here is bounded for a sender nobody has authenticated: the query is at
 * most {@link #MAX_QUERY_LENGTH} characters and {@link #MAX_PARAMS} parameters (a repeated name is refused), and the
 * challenge or token it echoes or signs is 1 to {@link #MAX_TOKEN_LENGTH} characters of {@code A-Z a-z 0-9 - . _ ~}
 * (the URL's unreserved characters), so an answer can carry no markup and the work is a few short HMACs at most.
 * <ul>
 * <li>Meta ({@code ?hub.mode=subscribe&hub.verify_token=..&hub.challenge=..}): the challenge is answered as
 * {@code text/plain} when the verify token equals {@link #metaVerifyToken} of one of the tenant's secrets (the app
 * secret). The token is derived, not stored: nothing more to seal, rotate or leak, and the token Meta sends in a URL
 * says nothing about the app secret.</li>
 * <li>X ({@code ?crc_token=..}): answered {@code {"response_token":"sha256=<base64 HMAC-SHA256(secret, token)>"}}
 * under the tenant's current secret. That signs attacker-chosen data, as X's protocol demands; the X verifier refuses
 * every POST body that is not a JSON object, and no token (its alphabet has no brace) is one, so a CRC answer never
 * verifies as an event's signature.</li>
 * <li>Dropbox ({@code ?challenge=..}): the challenge echoed as {@code text/plain}; nothing is computed.</li>
 * </ul>
 * Pure: the ingress bounds the rate per tenant and writes the answer.
 */
public final class QueryHandshake {

    /** Longest raw query string read; a longer one is refused unparsed. */
    public static final int MAX_QUERY_LENGTH = 1024;
    public static final int MAX_PARAMS = 8;
    public static final int MAX_TOKEN_LENGTH = 256;
    /** What a Meta tenant's verify token is the HMAC of, under its app secret. */
    public static final String META_VERIFY_TOKEN_LABEL = "meta-verify-token";
    static final String TEXT = "text/plain;charset=UTF-8";
    static final String JSON = "application/json;charset=UTF-8";
    private static final String UNRESERVED = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~";

    /** Which check the provider performs. */
    public enum Kind { META, X, DROPBOX }

    /** Why a check was refused; {@link #reason()} is the wire's reason code and never says what was expected. */
    public enum Failure {
        /** A parameter is missing, repeated, too long or outside the alphabet; or the query is too long. */
        MALFORMED("malformed_handshake"),
        /** Meta's verify token matches none of the tenant's secrets (or the tenant has none). */
        BAD_TOKEN("bad_verify_token");

        private final String reason;

        Failure(String reason) {
            this.reason = reason;
        }

        public String reason() {
            return reason;
        }
    }

    /** The answer: a body and its content type, or why not (then the other fields are null). */
    public record Answer(String contentType, String body, Failure failure) {

        static Answer of(String contentType, String body) {
            return new Answer(contentType, body, null);
        }

        static Answer refused(Failure failure) {
            return new Answer(null, null, failure);
        }
    }

    private final Kind kind;

    public QueryHandshake(Kind kind) {
        this.kind = kind;
    }

    public Kind kind() {
        return kind;
    }

    /**
     * The answer to a GET with this raw (still percent-encoded) query string.
     *
     * @param secrets the tenant's active secrets, current first
     */
    public Answer answer(String rawQuery, List<String> secrets) {
        Map<String, String> params = params(rawQuery);
        if (params == null) {
            return Answer.refused(Failure.MALFORMED);
        }
        return switch (kind) {
            case META -> meta(params, secrets);
            case X -> x(params, secrets);
            case DROPBOX -> token(params.get("challenge")) ? Answer.of(TEXT, params.get("challenge"))
                    : Answer.refused(Failure.MALFORMED);
        };
    }

    private static Answer meta(Map<String, String> params, List<String> secrets) {
        String challenge = params.get("hub.challenge");
        String token = params.get("hub.verify_token");
        if (!"subscribe".equals(params.get("hub.mode")) || !token(challenge) || token == null
                || token.isEmpty() || token.length() > MAX_TOKEN_LENGTH) {
            return Answer.refused(Failure.MALFORMED);
        }
        byte[] provided = token.getBytes(StandardCharsets.UTF_8);
        boolean match = false;
        for (String secret : secrets) {
            // Every secret, no early exit: the time does not say which one matched.
            match |= MessageDigest.isEqual(metaVerifyToken(secret).getBytes(StandardCharsets.UTF_8), provided);
        }
        return match ? Answer.of(TEXT, challenge) : Answer.refused(Failure.BAD_TOKEN);
    }

    private static Answer x(Map<String, String> params, List<String> secrets) {
        String crc = params.get("crc_token");
        if (!token(crc) || secrets.isEmpty()) {
            return Answer.refused(Failure.MALFORMED);
        }
        // X has one consumer secret per app: the tenant's current one. (During a rotation, set the new secret at X
        // and in the tenant together; the next CRC is answered under the new one.)
        String signed = Base64.getEncoder().encodeToString(Hmac.hmacSha256(secrets.get(0),
                crc.getBytes(StandardCharsets.US_ASCII)));
        return Answer.of(JSON, "{\"response_token\":\"sha256=" + signed + "\"}");
    }

    /** The verify token to set at Meta for a tenant with this app secret: hex HMAC-SHA256(secret, label). */
    public static String metaVerifyToken(String appSecret) {
        return HexFormat.of().formatHex(Hmac.hmacSha256(appSecret,
                META_VERIFY_TOKEN_LABEL.getBytes(StandardCharsets.US_ASCII)));
    }

    /** 1 to {@link #MAX_TOKEN_LENGTH} characters of the URL's unreserved set: {@code A-Z a-z 0-9 - . _ ~}. */
    static boolean token(String value) {
        if (value == null || value.isEmpty() || value.length() > MAX_TOKEN_LENGTH) {
            return false;
        }
        for (int i = 0; i < value.length(); i++) {
            if (UNRESERVED.indexOf(value.charAt(i)) < 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * The decoded parameters, or null when the query is missing, too long, has too many parameters, repeats a name
     * or is not well-formed percent-encoding. {@code +} is a space (as HTML forms encode it), which no token allows.
     */
    static Map<String, String> params(String rawQuery) {
        if (rawQuery == null || rawQuery.isEmpty() || rawQuery.length() > MAX_QUERY_LENGTH) {
            return null;
        }
        Map<String, String> params = new HashMap<>();
        for (String pair : rawQuery.split("&", -1)) {
            if (!pair.isEmpty() && !put(params, pair)) {
                return null;
            }
        }
        return params;
    }

    /** Adds one {@code name=value} pair; false when it is malformed, repeated or one too many. */
    private static boolean put(Map<String, String> params, String pair) {
        int eq = pair.indexOf('=');
        String name = decode(eq < 0 ? pair : pair.substring(0, eq));
        String value = decode(eq < 0 ? "" : pair.substring(eq + 1));
        return name != null && value != null && params.size() < MAX_PARAMS && params.put(name, value) == null;
    }

    /** The byte of the {@code %XY} escape at {@code at}, or -1 when it is short or not ASCII hex. */
    private static int escaped(String s, int at) {
        return at + 2 < s.length() && HexFormat.isHexDigit(s.charAt(at + 1)) && HexFormat.isHexDigit(s.charAt(at + 2))
                ? HexFormat.fromHexDigits(s, at + 1, at + 3) : -1;
    }

    /**
     * Strict percent-decoding to ASCII: null for a stray or short escape or any character outside printable ASCII (no
     * parameter this reads may carry one).
     */
    private static String decode(String s) {
        StringBuilder out = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            int c = s.charAt(i);
            if (c == '%') {
                c = escaped(s, i);
                i += 2;
            } else if (c == '+') {
                c = ' ';
            }
            if (c < 0x20 || c > 0x7e) {
                return null;
            }
            out.append((char) c);
        }
        return out.toString();
    }
}
