package io.webhookbuffer.ingress;

import static io.restassured.RestAssured.given;
import static io.webhookbuffer.testsupport.TestTenants.tenant;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.specification.RequestSpecification;
import io.vertx.mutiny.sqlclient.Pool;
import io.webhookbuffer.common.Hmac;
import io.webhookbuffer.testsupport.Db;
import io.webhookbuffer.testsupport.EventKeys;
import io.webhookbuffer.testsupport.Signed;
import io.webhookbuffer.testsupport.TestTenants;

/**
 * Issue 15 item 4: where the provider's id is outside what it signs, a captured request re-sent with a guessed future
 * id must not make the genuine event with that id a duplicate (before, it answered {@code 200 deduplicated} and the
 * genuine event was never stored). The key binds such an id to the body; an id the signature covers is kept as is.
 */
@QuarkusTest
class UnsignedIdsTests {

    private static final String CAPTURED = "{\"action\":\"opened\",\"number\":1000}";
    private static final String GENUINE = "{\"action\":\"opened\",\"number\":1001}";

    @Inject
    Pool pool;

    @Test
    void aForgedGenericIdNeitherSuppressesNorSharesTheGenuineEventsKey() {
        String t = tenant().provision();
        generic(CAPTURED, "evt_1000").post("/webhook/" + t).then().statusCode(202);
        // The attacker re-sends the captured request (its valid signature) under the next id.
        generic(CAPTURED, "evt_1001").post("/webhook/" + t).then().statusCode(202)
                .body("eventId", equalTo(EventKeys.bound("evt_1001", CAPTURED)));
        // The genuine evt_1001 arrives later: stored, not a duplicate.
        generic(GENUINE, "evt_1001").post("/webhook/" + t).then().statusCode(202).body("status", equalTo("buffered"))
                .body("eventId", equalTo(EventKeys.bound("evt_1001", GENUINE)));
        // The provider's retry of it (same id, same body) is still a duplicate.
        generic(GENUINE, "evt_1001").post("/webhook/" + t).then().statusCode(200)
                .body("status", equalTo("deduplicated")).body("eventId", equalTo(EventKeys.bound("evt_1001", GENUINE)));
        assertEquals(List.of(EventKeys.bound("evt_1000", CAPTURED), EventKeys.bound("evt_1001", CAPTURED),
                EventKeys.bound("evt_1001", GENUINE)), eventIds(t));
    }

    @Test
    void aForgedGitHubDeliveryIdDoesNotSuppressTheGenuineDelivery() {
        String t = tenant().provider("github").provision();
        github(CAPTURED, "d-1000").post("/webhook/" + t).then().statusCode(202);
        github(CAPTURED, "d-1001").post("/webhook/" + t).then().statusCode(202);
        github(GENUINE, "d-1001").post("/webhook/" + t).then().statusCode(202).body("status", equalTo("buffered"));
        github(GENUINE, "d-1001").post("/webhook/" + t).then().statusCode(200).body("status", equalTo("deduplicated"));
        assertEquals(3, Db.queued(pool, t));
    }

    @Test
    void anIdTheSignatureCoversIsTheKeyAsIs() {
        String t = tenant().provider("standard-webhooks").secrets(STANDARD_SECRET).provision();
        long now = System.currentTimeMillis() / 1000;
        standard(CAPTURED, "msg_1000", now, "msg_1000").post("/webhook/" + t).then().statusCode(202)
                .body("eventId", equalTo("msg_1000"));
        // Its id is signed: the captured request under another id does not verify at all.
        standard(CAPTURED, "msg_1001", now, "msg_1000").post("/webhook/" + t).then().statusCode(401);
        standard(GENUINE, "msg_1001", now, "msg_1001").post("/webhook/" + t).then().statusCode(202)
                .body("eventId", equalTo("msg_1001"));
        String stripe = tenant().provider("stripe").provision();
        String body = "{\"id\":\"evt_42\",\"type\":\"charge.succeeded\"}";
        String ts = Long.toString(now);
        given().header("Stripe-Signature", "t=" + ts + ",v1=" + Signed.signature(TestTenants.DEFAULT_SECRET,
                (ts + "." + body).getBytes(StandardCharsets.UTF_8))).contentType("application/json").body(body)
                .post("/webhook/" + stripe).then().statusCode(202).body("eventId", equalTo("evt_42"));
    }

    private static final String STANDARD_SECRET = "whsec_" + Base64.getEncoder()
            .encodeToString("standard-webhooks-test-key-32byt".getBytes(StandardCharsets.US_ASCII));

    private List<String> eventIds(String tenantId) {
        return Db.queueRows(pool, tenantId).stream().map(r -> r.getString("event_id")).toList();
    }

    private static RequestSpecification generic(String body, String id) {
        return Signed.webhook(TestTenants.DEFAULT_SECRET, body).header("X-Event-ID", id);
    }

    private static RequestSpecification github(String body, String delivery) {
        return given().header("X-Hub-Signature-256", "sha256=" + Signed.signature(TestTenants.DEFAULT_SECRET,
                body.getBytes(StandardCharsets.UTF_8))).header("X-GitHub-Delivery", delivery)
                .contentType("application/json").body(body);
    }

    /** Standard Webhooks: base64 HMAC-SHA256 of "{id}.{ts}.{body}" under the whsec_ key, signed for {@code signedId}. */
    private static RequestSpecification standard(String body, String id, long ts, String signedId) {
        byte[] key = Base64.getDecoder().decode(STANDARD_SECRET.substring("whsec_".length()));
        byte[] mac = Hmac.hmacSha256(key, (signedId + "." + ts + "." + body).getBytes(StandardCharsets.UTF_8));
        return given().header("webhook-id", id).header("webhook-timestamp", Long.toString(ts))
                .header("webhook-signature", "v1," + Base64.getEncoder().encodeToString(mac))
                .contentType("application/json").body(body);
    }
}
