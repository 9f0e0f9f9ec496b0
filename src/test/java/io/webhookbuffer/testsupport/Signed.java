package io.webhookbuffer.testsupport;

import static io.restassured.RestAssured.given;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

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

    /** A control command signed now with a fresh nonce. */
    public static RequestSpecification command(String body) {
        return command(body, System.currentTimeMillis() / 1000, nonce(), CONTROL_SECRET);
    }

    public static RequestSpecification command(String body, long timestamp, String nonce, String secret) {
        byte[] raw = body.getBytes(StandardCharsets.UTF_8);
        String ts = Long.toString(timestamp);
        return given().header("x-timestamp", ts).header("x-nonce", nonce)
                .header("x-signature", CommandSignature.sign(secret, ts, nonce, raw))
                .contentType("application/json").body(raw);
    }

    public static String nonce() {
        return CommandSignature.newNonce();
    }
}
