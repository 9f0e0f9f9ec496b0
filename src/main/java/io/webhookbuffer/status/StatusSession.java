package io.webhookbuffer.status;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;

import io.webhookbuffer.common.Hmac;

/**
 * The /status session cookie's value: {@code <expiry>.<mac>}, the expiry in epoch seconds and the MAC the base64url
 * (no padding) HMAC-SHA256 of {@code "buffer-status-session.v1.<expiry>"} under a key derived from
 * {@code buffer.status.token}. So a cookie holds no secret, proves it was issued by a replica that knows the token
 * (every replica accepts every replica's), and carries its own end: a browser's {@code Max-Age} is advice to the
 * browser, the expiry here is what the server enforces. An expiry further ahead than the TTL (plus clock skew between
 * replicas) is refused too, so a shorter TTL applies to cookies issued before it. Changing the token ends every
 * session. Pure: no Quarkus types, the clock is the caller's.
 */
final class StatusSession {

    /**
     * How long a sign-in lasts: a working day. The page only reads, and it has a way to end every session at once
     * (change {@code buffer.status.token}), so there is nothing for a shorter setting to protect that the token's
     * rotation does not. Was {@code buffer.status.session-ttl}.
     */
    static final Duration TTL = Duration.ofHours(8);
    /** Clocks of replicas may differ by this much: a cookie issued by one stays valid on another. */
    static final Duration SKEW = Duration.ofMinutes(5);
    private static final byte[] KEY_PURPOSE = "buffer-status-session-key".getBytes(StandardCharsets.UTF_8);
    private static final String SIGNED_PREFIX = "buffer-status-session.v1.";
    private static final int MAX_EXPIRY_DIGITS = 12;

    private final byte[] key;
    private final Duration ttl;

    StatusSession(String token, Duration ttl) {
        this.key = Hmac.hmacSha256(token, KEY_PURPOSE);
        this.ttl = ttl;
    }

    Duration ttl() {
        return ttl;
    }

    /** A cookie value valid from {@code now} for the TTL. */
    String issue(Instant now) {
        long expiry = now.plus(ttl).getEpochSecond();
        return expiry + "." + mac(expiry);
    }

    /** Whether {@code cookie} was issued with this token and has not expired at {@code now}. */
    boolean valid(String cookie, Instant now) {
        if (cookie == null) {
            return false;
        }
        int dot = cookie.indexOf('.');
        if (dot < 1 || dot > MAX_EXPIRY_DIGITS || !digits(cookie, dot)) {
            return false;
        }
        long expiry = Long.parseLong(cookie, 0, dot, 10);
        long nowSeconds = now.getEpochSecond();
        boolean inWindow = expiry > nowSeconds && expiry <= nowSeconds + ttl.toSeconds() + SKEW.toSeconds();
        byte[] given = cookie.substring(dot + 1).getBytes(StandardCharsets.US_ASCII);
        byte[] expected = mac(expiry).getBytes(StandardCharsets.US_ASCII);
        return Hmac.constantTimeEquals(given, expected) & inWindow;
    }

    private String mac(long expiry) {
        byte[] signed = (SIGNED_PREFIX + expiry).getBytes(StandardCharsets.US_ASCII);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(Hmac.hmacSha256(key, signed));
    }

    private static boolean digits(String s, int end) {
        for (int i = 0; i < end; i++) {
            if (s.charAt(i) < '0' || s.charAt(i) > '9') {
                return false;
            }
        }
        return true;
    }
}
