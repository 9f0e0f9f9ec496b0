package io.webhookbuffer.status;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;

import jakarta.ws.rs.core.NewCookie;

import org.junit.jupiter.api.Test;

/**
 * The status session: the cookie's value (a signed expiry, valid until then and only with the token that signed it),
 * its attributes, and which sign-in requests count as coming from the sign-in page itself.
 */
class StatusSessionTests {

    private static final String TOKEN = "a-status-token-of-enough-length-0123";
    private static final Duration TTL = Duration.ofHours(8);
    private static final Instant NOW = Instant.parse("2026-12-01T10:00:00Z");
    private final StatusSession session = new StatusSession(TOKEN, TTL);

    @Test
    void aCookieCarriesItsExpiryAndIsValidUntilThen() {
        String cookie = session.issue(NOW);
        assertEquals(NOW.plus(TTL).getEpochSecond(), Long.parseLong(cookie.substring(0, cookie.indexOf('.'))));
        assertTrue(cookie.matches("\\d+\\.[A-Za-z0-9_-]{43}"), cookie);
        assertFalse(cookie.contains(TOKEN));
        assertTrue(session.valid(cookie, NOW));
        assertTrue(session.valid(cookie, NOW.plus(TTL).minusSeconds(1)));
        assertFalse(session.valid(cookie, NOW.plus(TTL)), "expired at its expiry");
        assertFalse(session.valid(cookie, NOW.plus(Duration.ofDays(30))));
    }

    @Test
    void aChangedExpiryOrMacOrAnotherTokensCookieIsRefused() {
        String cookie = session.issue(NOW);
        String mac = cookie.substring(cookie.indexOf('.') + 1);
        long expiry = NOW.plus(TTL).getEpochSecond();
        assertFalse(session.valid((expiry + 3600) + "." + mac, NOW), "a later expiry under the same MAC");
        assertFalse(session.valid((expiry - 1) + "." + mac, NOW));
        char last = mac.charAt(mac.length() - 1);
        assertFalse(session.valid(expiry + "." + mac.substring(0, mac.length() - 1) + (last == 'A' ? 'B' : 'A'), NOW));
        assertFalse(new StatusSession("another-token-of-enough-length-0123", TTL).valid(cookie, NOW));
        assertFalse(session.valid(new StatusSession("another-token-of-enough-length-0123", TTL).issue(NOW), NOW));
    }

    @Test
    void anExpiryFurtherAheadThanTheTtlAndSkewIsRefused() {
        assertTrue(session.valid(session.issue(NOW.plus(StatusSession.SKEW)), NOW), "another replica's clock ahead");
        assertFalse(session.valid(new StatusSession(TOKEN, Duration.ofDays(365)).issue(NOW), NOW),
                "issued under a longer TTL than the one in force now");
    }

    @Test
    void malformedValuesAreRefused() {
        for (String bad : new String[] { null, "", ".", "abc", "123", ".abc", "12a.abc", "-1.abc", "+1.abc",
                "9999999999999999999999.abc", " 1.abc" }) {
            assertFalse(session.valid(bad, NOW), String.valueOf(bad));
        }
    }

    @Test
    void theCookieIsSecureUnlessSwitchedOffForLocalMode() {
        NewCookie secure = StatusResource.sessionCookie("v", TTL.toSeconds(), true);
        assertTrue(secure.isSecure() && secure.isHttpOnly());
        assertEquals(NewCookie.SameSite.STRICT, secure.getSameSite());
        assertEquals("/status", secure.getPath());
        assertEquals(TTL.toSeconds(), secure.getMaxAge());
        assertFalse(StatusResource.sessionCookie("v", TTL.toSeconds(), false).isSecure());
    }

    @Test
    void aSignInCountsAsTheFormsOwnWhenTheBrowserSaysSoOrItsOriginIsTheHost() {
        assertTrue(SignInOrigin.sameOrigin("same-origin", "https://ops.example", "other.example"), "the browser's word");
        assertTrue(SignInOrigin.sameOrigin("none", null, "ops.example"));
        for (String site : new String[] { "cross-site", "same-site", "" }) {
            assertFalse(SignInOrigin.sameOrigin(site, "https://ops.example", "ops.example"), site);
        }
        assertTrue(SignInOrigin.sameOrigin(null, "http://localhost:9000", "localhost:9000"));
        assertTrue(SignInOrigin.sameOrigin(null, "https://Ops.Example", "ops.example:443"));
        assertTrue(SignInOrigin.sameOrigin(null, "https://ops.example:443", "ops.example"));
        assertFalse(SignInOrigin.sameOrigin(null, "http://localhost:9001", "localhost:9000"));
        assertFalse(SignInOrigin.sameOrigin(null, "https://attacker.example", "ops.example"));
        assertFalse(SignInOrigin.sameOrigin(null, "null", "ops.example"), "a sandboxed or file page");
        assertFalse(SignInOrigin.sameOrigin(null, "https://ops.example", null));
        assertTrue(SignInOrigin.sameOrigin(null, null, "ops.example"), "not a browser: the token is its proof");
    }
}
