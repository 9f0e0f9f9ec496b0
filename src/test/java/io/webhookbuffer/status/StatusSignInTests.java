package io.webhookbuffer.status;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import io.restassured.response.Response;
import io.webhookbuffer.common.Hmac;
import io.webhookbuffer.controlplane.ControlPlaneProfile;

/**
 * Signing in to /status: the token goes in a POSTed form, never in the address (?token= is refused with a pointer to
 * the form); the session cookie is Secure, HttpOnly, SameSite=Strict and carries a signed expiry the server enforces;
 * a cross-site sign-in is refused.
 */
@QuarkusTest
@TestProfile(ControlPlaneProfile.class)
class StatusSignInTests {

    private static final Duration TTL = StatusSession.TTL;

    @Test
    void theTokenInTheAddressIsRefusedWithAPointerToTheForm() {
        Response answer = given().redirects().follow(false).queryParam("token", ControlPlaneProfile.STATUS_TOKEN).get("/status");
        assertEquals(400, answer.statusCode(), answer.asString());
        assertNull(answer.header("Set-Cookie"), "no session from a token in the address");
        assertTrue(answer.asString().contains("/status/sign-in"), answer.asString());
        given().redirects().follow(false).queryParam("token", ControlPlaneProfile.STATUS_TOKEN)
                .header("Authorization", "Bearer " + ControlPlaneProfile.STATUS_TOKEN).get("/status").then().statusCode(400);
    }

    @Test
    void aBrowserIsShownTheFormAndTheSignInSetsASecureStrictCookieWithItsExpiry() {
        given().accept("text/html").get("/status").then().statusCode(401)
                .contentType(containsString("text/html"))
                .body(containsString("<form method=\"post\" action=\"/status/sign-in\""))
                .body(containsString("name=\"token\"")).body(not(containsString("<script")))
                .header("Content-Security-Policy", containsString("form-action 'self'"));

        Response in = signIn(ControlPlaneProfile.STATUS_TOKEN, Map.of());
        assertEquals(303, in.statusCode(), in.asString());
        assertEquals("/status", in.header("Location"), "back to the page, the token in no address");
        String setCookie = in.header("Set-Cookie");
        for (String attribute : new String[] { "HttpOnly", "SameSite=Strict", "Secure", "Path=/status",
                "Max-Age=" + TTL.toSeconds() }) {
            assertTrue(setCookie.contains(attribute), attribute + " in " + setCookie);
        }
        String value = in.cookie(StatusResource.COOKIE);
        assertFalse(value.contains(ControlPlaneProfile.STATUS_TOKEN), "the cookie is not the token");
        long expiry = Long.parseLong(value.substring(0, value.indexOf('.')));
        long expected = Instant.now().plus(TTL).getEpochSecond();
        assertTrue(Math.abs(expiry - expected) < 60, "the cookie carries its expiry: " + value);
        given().cookie(StatusResource.COOKIE, value).get("/status").then().statusCode(200);

        Response wrong = signIn("not-the-status-token-0123456789", Map.of());
        assertEquals(401, wrong.statusCode());
        assertNull(wrong.header("Set-Cookie"));
        assertTrue(wrong.asString().contains("action=\"/status/sign-in\""), "the form again");
    }

    @Test
    void anExpiredTamperedOrUnsignedCookieIsRefused() {
        StatusSession session = new StatusSession(ControlPlaneProfile.STATUS_TOKEN, TTL);
        Instant now = Instant.now();
        String valid = session.issue(now);
        String expired = session.issue(now.minus(TTL).minusSeconds(1));
        String mac = valid.substring(valid.indexOf('.') + 1);
        String laterExpiry = (now.plus(TTL).getEpochSecond() + 3600) + "." + mac;
        String tooLong = new StatusSession(ControlPlaneProfile.STATUS_TOKEN, Duration.ofDays(365)).issue(now);
        String otherToken = new StatusSession("another-status-token-0123456789abc", TTL).issue(now);
        // The cookie before signed expiries: an HMAC of the token alone, the same value forever.
        String withoutExpiry = HexFormat.of().formatHex(Hmac.hmacSha256(ControlPlaneProfile.STATUS_TOKEN,
                "buffer-status-session".getBytes(StandardCharsets.UTF_8)));
        for (String cookie : new String[] { expired, laterExpiry, tooLong, otherToken, withoutExpiry,
                ControlPlaneProfile.STATUS_TOKEN }) {
            given().cookie(StatusResource.COOKIE, cookie).get("/status").then().statusCode(401);
        }
        given().cookie(StatusResource.COOKIE, valid).get("/status").then().statusCode(200);
    }

    @Test
    void aCrossSiteSignInIsRefused() {
        for (Map<String, String> headers : List.of(Map.of("Sec-Fetch-Site", "cross-site"),
                Map.of("Sec-Fetch-Site", "same-site"), Map.of("Origin", "https://attacker.example"),
                Map.of("Origin", "null"))) {
            Response refused = signIn(ControlPlaneProfile.STATUS_TOKEN, headers);
            assertEquals(403, refused.statusCode(), headers + ": " + refused.asString());
            assertNull(refused.header("Set-Cookie"), headers.toString());
        }
        String self = RestAssured.baseURI + ":" + RestAssured.port; // the address the requests are sent to
        assertEquals(303, signIn(ControlPlaneProfile.STATUS_TOKEN, Map.of("Sec-Fetch-Site", "same-origin", "Origin", self))
                .statusCode());
        assertEquals(303, signIn(ControlPlaneProfile.STATUS_TOKEN, Map.of("Origin", self)).statusCode());
    }

    private static Response signIn(String token, Map<String, String> headers) {
        return given().redirects().follow(false).headers(headers).contentType("application/x-www-form-urlencoded")
                .formParam("token", token).post("/status/sign-in");
    }
}
