package io.webhookbuffer.controlplane;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.nullValue;

import java.nio.charset.StandardCharsets;
import java.security.KeyPairGenerator;
import java.security.spec.ECGenParameterSpec;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.UUID;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.specification.RequestSpecification;
import io.webhookbuffer.testsupport.Signed;

/**
 * The tenant command's provider settings against the real app, PostgreSQL and Redis: what is refused (400 with a
 * reason that names the field), what GET shows (never a secret), and a custom scheme working end to end.
 */
@QuarkusTest
class ProviderConfigTests {

    private static final String CUSTOM_SCHEME = "{\"signatureHeader\":\"X-Acme-Signature\",\"algorithm\":\"sha512\","
            + "\"encoding\":\"hex\",\"prefix\":\"sha512=\",\"signedContent\":\"{ts}.{body}\","
            + "\"timestampSource\":\"header\",\"timestampHeader\":\"X-Acme-Timestamp\",\"toleranceSeconds\":120,"
            + "\"dedupeField\":\"eventId\"}";

    private static String newId() {
        return "prov-" + UUID.randomUUID().toString().substring(0, 18);
    }

    private static void refused(String body, String detailPart) {
        Signed.command(body).put("/control/tenants/" + newId()).then().statusCode(400)
                .contentType(containsString("application/problem+json"))
                .body("reason", equalTo("invalid_request")).body("detail", containsString(detailPart))
                .body(not(containsString("cfg-secret")));
    }

    @Test
    void unknownOrMisconfiguredProvidersAreRefused() {
        refused("{\"provider\":\"stripe-v2\",\"secrets\":[\"cfg-secret\"]}", "'provider' must be one of");
        refused("{\"provider\":\"\",\"secrets\":[\"cfg-secret\"]}", "'provider' must be one of");
        refused("{\"provider\":\"square\",\"secrets\":[\"cfg-secret\"]}", "needs 'publicUrl'");
        refused("{\"provider\":\"twilio\",\"secrets\":[\"cfg-secret\"]}", "needs 'publicUrl'");
        refused("{\"provider\":\"twilio\",\"secrets\":[\"cfg-secret\"],\"publicUrl\":\"ftp://x.example/\"}",
                "'publicUrl' must be");
        refused("{\"provider\":\"github\",\"secrets\":[\"cfg-secret\"],\"toleranceSeconds\":60}",
                "'toleranceSeconds' applies only");
        refused("{\"provider\":\"stripe\",\"secrets\":[\"cfg-secret\"],\"toleranceSeconds\":0}",
                "'toleranceSeconds' must be an integer from 1");
        refused("{\"provider\":\"standard-webhooks\",\"secrets\":[\"cfg-secret\"]}", "Standard Webhooks secret");
        refused("{\"provider\":\"custom\",\"secrets\":[\"cfg-secret\"]}", "needs 'customScheme'");
        refused("{\"provider\":\"github\",\"secrets\":[\"cfg-secret\"],\"customScheme\":" + CUSTOM_SCHEME + "}",
                "only used with");
    }

    /** Public verification keys are parsed by the command: one that is no key of its scheme is refused by position. */
    @Test
    void publicVerificationKeysAreParsedAtTheTenantCommand() throws Exception {
        refused("{\"provider\":\"sendgrid\",\"secrets\":[\"cfg-secret\"]}",
                "Secret #1 of 'sendgrid' must be the provider's public verification key");
        KeyPairGenerator ec = KeyPairGenerator.getInstance("EC");
        ec.initialize(new ECGenParameterSpec("secp384r1"));
        String p384 = Base64.getEncoder().encodeToString(ec.generateKeyPair().getPublic().getEncoded());
        refused("{\"provider\":\"sendgrid\",\"secrets\":[\"" + p384 + "\"]}", "an EC key of another curve");
        String discordKey = "ab".repeat(32);
        refused("{\"provider\":\"discord\",\"secrets\":[\"" + discordKey + "\",\"cfg-secret\"]}",
                "Secret #2 of 'discord'");
        refused("{\"provider\":\"standard-webhooks\",\"secrets\":[\"whsk_" + "A".repeat(86) + "\"]}",
                "signing (private) key");
        Signed.command("{\"provider\":\"discord\",\"secrets\":[\"" + discordKey + "\"],\"toleranceSeconds\":60}")
                .put("/control/tenants/" + newId()).then().statusCode(200);
        byte[] spki = KeyPairGenerator.getInstance("Ed25519").generateKeyPair().getPublic().getEncoded();
        String whpk = "whpk_" + Base64.getEncoder().encodeToString(Arrays.copyOfRange(spki, spki.length - 32, spki.length));
        Signed.command("{\"provider\":\"standard-webhooks\",\"secrets\":[\"whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw\","
                + "\"" + whpk + "\"]}")
                .put("/control/tenants/" + newId()).then().statusCode(200);
    }

    @Test
    void customSchemesAreValidatedStrictly() {
        refused("{\"provider\":\"custom\",\"secrets\":[\"cfg-secret\"],\"customScheme\":{\"signatureHeader\":\"X-S\","
                + "\"algoritm\":\"sha256\"}}", "Unknown field 'customScheme.algoritm'");
        refused("{\"provider\":\"custom\",\"secrets\":[\"cfg-secret\"],\"customScheme\":{\"signatureHeader\":\"X-S\","
                + "\"algorithm\":\"md5\"}}", "'customScheme.algorithm' must be one of [sha1, sha256, sha512]");
        refused("{\"provider\":\"custom\",\"secrets\":[\"cfg-secret\"],\"customScheme\":{\"signatureHeader\":\"X-S\","
                + "\"signedContent\":\"{ts}.{body}\"}}", "{ts} needs a timestamp");
        refused("{\"provider\":\"custom\",\"secrets\":[\"cfg-secret\"],\"customScheme\":{\"signatureHeader\":\"X-S\","
                + "\"signedContent\":\"{nonce}{body}\"}}", "unknown placeholder {nonce}");
        refused("{\"provider\":\"custom\",\"secrets\":[\"cfg-secret\"],\"customScheme\":{}}",
                "'customScheme.signatureHeader' is required");
        refused("{\"provider\":\"custom\",\"secrets\":[\"cfg-secret\"],\"customScheme\":{\"signatureHeader\":\"X S\"}}",
                "must be a header name");
        refused("{\"provider\":\"custom\",\"secrets\":[\"cfg-secret\"],\"customScheme\":[1]}",
                "'customScheme' must be a JSON object");
    }

    @Test
    void getShowsTheSchemeSettingsButNeverASecret() {
        String id = newId();
        String url = "https://hooks.example.com/webhook/" + id + "?src=twilio";
        Signed.command("{\"provider\":\"twilio\",\"secrets\":[\"cfg-secret-twilio\"],\"publicUrl\":\"" + url + "\"}")
                .put("/control/tenants/" + id).then().statusCode(200).body("publicUrl", equalTo(url));
        Signed.command("").get("/control/tenants/" + id).then().statusCode(200)
                .body("provider", equalTo("twilio")).body("publicUrl", equalTo(url))
                .body("toleranceSeconds", nullValue()).body("customScheme", nullValue())
                .body(not(containsString("cfg-secret")));

        String custom = newId();
        Signed.command("{\"provider\":\"custom\",\"secrets\":[\"cfg-secret-custom\"],\"customScheme\":"
                + CUSTOM_SCHEME + "}").put("/control/tenants/" + custom).then().statusCode(200);
        Signed.command("").get("/control/tenants/" + custom).then().statusCode(200)
                .body("provider", equalTo("custom"))
                .body("customScheme.signatureHeader", equalTo("X-Acme-Signature"))
                .body("customScheme.algorithm", equalTo("sha512"))
                .body("customScheme.toleranceSeconds", equalTo(120))
                .body(not(containsString("cfg-secret")));
    }

    @Test
    void changingTheProviderDropsTheOldOnesCustomSchemeAndTolerance() {
        String id = newId();
        Signed.command("{\"provider\":\"custom\",\"secrets\":[\"cfg-secret\"],\"customScheme\":" + CUSTOM_SCHEME + "}")
                .put("/control/tenants/" + id).then().statusCode(200);
        Signed.command("{\"provider\":\"stripe\",\"toleranceSeconds\":60}").put("/control/tenants/" + id)
                .then().statusCode(200).body("customScheme", nullValue()).body("toleranceSeconds", equalTo(60));
        Signed.command("{\"provider\":\"github\"}").put("/control/tenants/" + id)
                .then().statusCode(200).body("toleranceSeconds", nullValue());
    }

    @Test
    void aCustomSchemeVerifiesEndToEnd() throws Exception {
        String id = newId();
        Signed.command("{\"provider\":\"custom\",\"secrets\":[\"cfg-secret-acme\"],\"customScheme\":" + CUSTOM_SCHEME
                + "}").put("/control/tenants/" + id).then().statusCode(200);
        String body = "{\"eventId\":\"acme-evt-1\",\"kind\":\"order.paid\"}";
        long now = System.currentTimeMillis() / 1000;
        acme(body, now, "cfg-secret-acme").post("/webhook/" + id).then().statusCode(202)
                .body("eventId", equalTo("acme-evt-1"));
        acme(body, now + 1, "cfg-secret-acme").post("/webhook/" + id).then().statusCode(200)
                .body("status", equalTo("deduplicated"));
        acme(body, now - 600, "cfg-secret-acme").post("/webhook/" + id).then().statusCode(401)
                .body("reason", equalTo("stale_timestamp"));
        acme(body, now, "other-secret").post("/webhook/" + id).then().statusCode(401)
                .body("reason", equalTo("bad_signature"));
    }

    private static RequestSpecification acme(String body, long ts, String secret)
            throws Exception {
        Mac mac = Mac.getInstance("HmacSHA512");
        mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA512"));
        String signature = HexFormat.of().formatHex(mac.doFinal((ts + "." + body).getBytes(StandardCharsets.UTF_8)));
        return given().header("X-Acme-Timestamp", Long.toString(ts)).header("X-Acme-Signature", "sha512=" + signature)
                .contentType("application/json").body(body.getBytes(StandardCharsets.UTF_8));
    }
}
