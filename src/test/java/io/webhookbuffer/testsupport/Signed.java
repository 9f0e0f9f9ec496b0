package io.webhookbuffer.testsupport;

import static io.restassured.RestAssured.given;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HexFormat;

import io.restassured.filter.Filter;
import io.restassured.filter.FilterContext;
import io.restassured.response.Response;
import io.restassured.specification.FilterableRequestSpecification;
import io.restassured.specification.FilterableResponseSpecification;
import io.restassured.specification.RequestSpecification;
import io.webhookbuffer.common.Hmac;
import io.webhookbuffer.controlplane.CommandSignature;

/** Builds requests signed the way a provider (generic scheme) or the control plane signs them. */
public final class Signed {

    /** The control secret of the test profile (application.properties). */
    public static final String CONTROL_SECRET = "test-control-secret-0123456789abcdef";

    private Signed() {
    }

    /** A webhook with a valid generic signature under {@code secret}. */
    public static RequestSpecification webhook(String secret, byte[] body) {
        return given().header("X-Signature", signature(secret, body))
                .contentType("application/json").body(body);
    }

    /**
     * Lowercase hex HMAC-SHA256(secret, bytes): over the raw body, the generic scheme's {@code X-Signature}; over the
     * string a scheme signs, the hex MAC of schemes such as Stripe's {@code v1} or GitHub's {@code sha256=}.
     */
    public static String signature(String secret, byte[] body) {
        return HexFormat.of().formatHex(Hmac.hmacSha256(secret, body));
    }

    public static RequestSpecification webhook(String secret, String body) {
        return webhook(secret, body.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * A control command signed now with a fresh nonce, in v2: the signature is made as the request is sent, over the
     * method and the path and query RestAssured sends.
     */
    public static RequestSpecification command(String body) {
        return command(body, System.currentTimeMillis() / 1000, nonce(), CONTROL_SECRET);
    }

    public static RequestSpecification command(String body, long timestamp, String nonce, String secret) {
        byte[] raw = body.getBytes(StandardCharsets.UTF_8);
        String ts = Long.toString(timestamp);
        return given().header("x-timestamp", ts).header("x-nonce", nonce)
                .filter(new V2Signer(secret, ts, nonce, raw))
                .contentType("application/json").body(raw);
    }

    /** A command signed now in the seed's v1 format ("{timestamp}.{nonce}.{body}": no method, no path). */
    public static RequestSpecification commandV1(String body) {
        byte[] raw = body.getBytes(StandardCharsets.UTF_8);
        String ts = Long.toString(System.currentTimeMillis() / 1000);
        String nonce = nonce();
        return given().header("x-timestamp", ts).header("x-nonce", nonce)
                .header("x-signature", v1(CONTROL_SECRET, ts, nonce, raw))
                .contentType("application/json").body(raw);
    }

    /**
     * A command signed now in v2 for {@code method} and {@code target}, whatever it is then sent as: what a captured
     * command looks like when someone re-sends it elsewhere.
     */
    public static RequestSpecification commandSignedFor(String method, String target, String body) {
        byte[] raw = body.getBytes(StandardCharsets.UTF_8);
        String ts = Long.toString(System.currentTimeMillis() / 1000);
        String nonce = nonce();
        return given().header("x-timestamp", ts).header("x-nonce", nonce)
                .header("x-signature", v2(CONTROL_SECRET, "command", method, target, ts, nonce, raw))
                .contentType("application/json").body(raw);
    }

    /**
     * The v2 {@code x-signature} value, computed here from docs/control-plane.md rather than by the code under test:
     * {@code v2=} base64url(HMAC-SHA256(secret, "webhook-buffer-v2\n{direction}\n{method}\n{target}\n{ts}\n{nonce}\n"
     * + body)).
     */
    public static String v2(String secret, String direction, String method, String target, String timestamp,
            String nonce, byte[] body) {
        String head = "webhook-buffer-v2\n" + direction + "\n" + method + "\n" + target + "\n" + timestamp + "\n"
                + nonce + "\n";
        return "v2=" + Base64.getUrlEncoder().withoutPadding()
                .encodeToString(Hmac.hmacSha256(secret, head.getBytes(StandardCharsets.US_ASCII), body));
    }

    /** The seed's v1 {@code x-signature}: base64url(HMAC-SHA256(secret, "{ts}.{nonce}." + body)), computed here. */
    public static String v1(String secret, String timestamp, String nonce, byte[] body) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(
                Hmac.hmacSha256(secret, (timestamp + "." + nonce + ".").getBytes(StandardCharsets.US_ASCII), body));
    }

    /** Adds the v2 {@code x-signature} over the method and the URI the request is about to be sent with. */
    private record V2Signer(String secret, String timestamp, String nonce, byte[] body) implements Filter {
        @Override
        public Response filter(FilterableRequestSpecification request, FilterableResponseSpecification response,
                FilterContext context) {
            URI uri = URI.create(request.getURI());
            String target = uri.getRawQuery() == null ? uri.getRawPath() : uri.getRawPath() + "?" + uri.getRawQuery();
            request.header("x-signature", v2(secret, "command", request.getMethod(), target, timestamp, nonce, body));
            return context.next(request, response);
        }
    }

    public static String nonce() {
        return CommandSignature.newNonce();
    }
}
