package io.webhookbuffer.ingress;

import static io.restassured.RestAssured.given;
import static io.webhookbuffer.testsupport.TestTenants.tenant;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Base64;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.config.EncoderConfig;
import io.restassured.specification.RequestSpecification;
import io.vertx.mutiny.sqlclient.Pool;
import io.webhookbuffer.common.Hmac;
import io.webhookbuffer.testsupport.Db;
import io.webhookbuffer.testsupport.EventKeys;
import io.webhookbuffer.testsupport.SignatureVectors;
import io.webhookbuffer.testsupport.SignatureVectors.Vector;
import io.webhookbuffer.testsupport.Signed;
import io.webhookbuffer.testsupport.TestTenants;

/**
 * Issue 41 item 1: a provider's own retry of one event (same event, new send time) is a duplicate, for every provider
 * whose id the signature does not cover. Where the retry changes a signed body field (Linear's
 * {@code webhookTimestamp}, a custom scheme's body timestamp) the binding leaves that field out; where it changes
 * nothing in the body (generic, GitHub, Shopify, GitLab, Twilio, Razorpay, Sentry, a header timestamp) the key is
 * stable as it is.
 * Each retry: the first send {@code 202 buffered}, the retry {@code 200 deduplicated} under the same eventId, one
 * queued row. What each provider's retry changes is in docs/providers.md ("What a provider's retry changes").
 */
@QuarkusTest
class ProviderRetriesTests {

    private static final String DELIVERY = "234d1a4e-b617-4388-90fe-adc3633d6b72";
    private static final String EVENT = "{\"action\":\"opened\",\"number\":1001}";

    @Inject
    Pool pool;

    @Test
    void aLinearRetryWithANewWebhookTimestampIsADuplicate() {
        String t = tenant().provider("linear").provision();
        long now = System.currentTimeMillis();
        String first = linearBody("issue-1", now);
        String retry = linearBody("issue-1", now + 1_000); // Linear signs it again a second later
        String eventId = linear(first, DELIVERY).post("/webhook/" + t).then().statusCode(202)
                .body("status", equalTo("buffered")).extract().path("eventId");
        linear(retry, DELIVERY).post("/webhook/" + t).then().statusCode(200).body("status", equalTo("deduplicated"))
                .body("eventId", equalTo(eventId));
        assertEquals(EventKeys.boundWithout(DELIVERY, first, "webhookTimestamp"), eventId);
        assertEquals(1, Db.queued(pool, t));
    }

    @Test
    void aCapturedLinearRequestUnderAGuessedDeliveryIdStillGetsAKeyOfItsOwn() {
        String t = tenant().provider("linear").provision();
        long now = System.currentTimeMillis();
        String captured = linearBody("issue-1", now);
        linear(captured, "d-1000").post("/webhook/" + t).then().statusCode(202);
        // Re-sent within the tolerance under the next delivery id: bound to its own (captured) event.
        linear(captured, "d-1001").post("/webhook/" + t).then().statusCode(202)
                .body("eventId", equalTo(EventKeys.boundWithout("d-1001", captured, "webhookTimestamp")));
        // The genuine d-1001 (another event) is stored, and its own retry is the duplicate.
        String genuine = linearBody("issue-2", now + 500);
        linear(genuine, "d-1001").post("/webhook/" + t).then().statusCode(202).body("status", equalTo("buffered"));
        linear(linearBody("issue-2", now + 1_500), "d-1001").post("/webhook/" + t).then().statusCode(200)
                .body("status", equalTo("deduplicated"))
                .body("eventId", equalTo(EventKeys.boundWithout("d-1001", genuine, "webhookTimestamp")));
        assertEquals(3, Db.queued(pool, t));
    }

    @Test
    void aCustomSchemeWithABodyTimestampLeavesItOutOfTheBinding() {
        String t = tenant().customScheme("{\"signatureHeader\": \"X-Acme-Signature\", \"timestampSource\": \"body\","
                + " \"timestampField\": \"sentAt\", \"timestampUnit\": \"milliseconds\","
                + " \"dedupeHeader\": \"X-Acme-Delivery\"}").provision();
        long now = System.currentTimeMillis();
        String first = "{\"type\":\"order.paid\",\"order\":7,\"sentAt\":" + now + "}";
        String retry = "{\"type\":\"order.paid\",\"order\":7,\"sentAt\":" + (now + 2_000) + "}";
        String eventId = acme(first).post("/webhook/" + t).then().statusCode(202).extract().path("eventId");
        acme(retry).post("/webhook/" + t).then().statusCode(200).body("status", equalTo("deduplicated"))
                .body("eventId", equalTo(eventId));
        assertEquals(EventKeys.boundWithout("acme-7", first, "sentAt"), eventId);
        // Another event under the same delivery id is not a duplicate: only the send time is left out.
        acme("{\"type\":\"order.paid\",\"order\":8,\"sentAt\":" + now + "}").post("/webhook/" + t).then()
                .statusCode(202).body("status", equalTo("buffered"));
        assertEquals(2, Db.queued(pool, t));
    }

    @Test
    void aCustomSchemeWithAHeaderTimestampKeepsTheBodyAsSigned() {
        String t = tenant().customScheme("{\"signatureHeader\": \"X-Acme-Signature\", \"signedContent\": \"{ts}.{body}\","
                + " \"timestampSource\": \"header\", \"timestampHeader\": \"X-Acme-Timestamp\","
                + " \"dedupeHeader\": \"X-Acme-Delivery\"}").provision();
        long now = System.currentTimeMillis() / 1000;
        assertRetryIsADuplicate(t, acmeAt(now), acmeAt(now + 2), EventKeys.bound("acme-7", EVENT));
    }

    @Test
    void genericGitHubShopifyAndGitLabRetriesRepeatTheBody() {
        String generic = tenant().provision();
        assertRetryIsADuplicate(generic, Signed.webhook(TestTenants.DEFAULT_SECRET, EVENT).header("X-Event-ID", "evt_1"),
                Signed.webhook(TestTenants.DEFAULT_SECRET, EVENT).header("X-Event-ID", "evt_1"),
                EventKeys.bound("evt_1", EVENT));
        // GitHub's redelivery: the same X-GitHub-Delivery and payload (GitHub itself never retries).
        String github = tenant().provider("github").provision();
        assertRetryIsADuplicate(github, github(), github(), EventKeys.bound(DELIVERY, EVENT));
        // Shopify's retry: the original payload and X-Shopify-Triggered-At, the same X-Shopify-Webhook-Id.
        String shopify = tenant().provider("shopify").provision();
        assertRetryIsADuplicate(shopify, shopify(), shopify(), EventKeys.bound(DELIVERY, EVENT));
        // GitLab's retry: the same Idempotency-Key and data.
        String gitlab = tenant().provider("gitlab").provision();
        assertRetryIsADuplicate(gitlab, gitlab(), gitlab(), EventKeys.bound(DELIVERY, EVENT));
    }

    @Test
    void razorpayAndSentryRetriesRepeatTheBody() {
        String razorpay = tenant().provider("razorpay").provision();
        assertRetryIsADuplicate(razorpay, razorpay(), razorpay(), EventKeys.bound(DELIVERY, EVENT));
        // Sentry's Sentry-Hook-Timestamp is a header outside its signature: a new one changes nothing bound.
        String sentry = tenant().provider("sentry").provision();
        long now = System.currentTimeMillis() / 1000;
        assertRetryIsADuplicate(sentry, sentryAt(now), sentryAt(now + 2), EventKeys.bound(DELIVERY, EVENT));
    }

    @Test
    void aTwilioRetryRepeatsTheRequest() {
        Vector v = SignatureVectors.of("twilio").stream().filter(x -> x.name().equals("valid")).findFirst().orElseThrow();
        String t = tenant().provider("twilio").secrets(v.secrets()).publicUrl(v.publicUrl()).provision();
        assertRetryIsADuplicate(t, twilio(v), twilio(v), EventKeys.bound(v.dedupeId(), v.body()));
    }

    @Test
    void aZendeskRetrySignedAtANewTimeKeepsTheKey() {
        String t = tenant().provider("zendesk").provision();
        Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        assertRetryIsADuplicate(t, zendeskAt(now), zendeskAt(now.plusSeconds(2)), EventKeys.bound(DELIVERY, EVENT));
    }

    // ---- helpers ----

    private void assertRetryIsADuplicate(String tenantId, RequestSpecification first, RequestSpecification retry,
            String expectedKey) {
        first.post("/webhook/" + tenantId).then().statusCode(202).body("status", equalTo("buffered"))
                .body("eventId", equalTo(expectedKey));
        retry.post("/webhook/" + tenantId).then().statusCode(200).body("status", equalTo("deduplicated"))
                .body("eventId", equalTo(expectedKey));
        assertEquals(1, Db.queued(pool, tenantId));
    }

    private static String linearBody(String issue, long webhookTimestamp) {
        return "{\"action\":\"create\",\"type\":\"Issue\",\"createdAt\":\"2026-12-06T15:00:00.000Z\","
                + "\"data\":{\"id\":\"" + issue + "\"},\"webhookId\":\"wh-1\",\"webhookTimestamp\":" + webhookTimestamp
                + "}";
    }

    private static RequestSpecification linear(String body, String delivery) {
        return given().header("Linear-Signature", Signed.signature(TestTenants.DEFAULT_SECRET, bytes(body)))
                .header("Linear-Delivery", delivery).contentType("application/json").body(body);
    }

    private static RequestSpecification acme(String body) {
        return given().header("X-Acme-Signature", Signed.signature(TestTenants.DEFAULT_SECRET, bytes(body)))
                .header("X-Acme-Delivery", "acme-7").contentType("application/json").body(body);
    }

    private static RequestSpecification acmeAt(long ts) {
        return given().header("X-Acme-Signature", Signed.signature(TestTenants.DEFAULT_SECRET, bytes(ts + "." + EVENT)))
                .header("X-Acme-Timestamp", Long.toString(ts)).header("X-Acme-Delivery", "acme-7")
                .contentType("application/json").body(EVENT);
    }

    private static RequestSpecification github() {
        return given().header("X-Hub-Signature-256", "sha256=" + Signed.signature(TestTenants.DEFAULT_SECRET, bytes(EVENT)))
                .header("X-GitHub-Delivery", DELIVERY).contentType("application/json").body(EVENT);
    }

    private static RequestSpecification shopify() {
        return given().header("X-Shopify-Hmac-Sha256", base64Hmac(EVENT)).header("X-Shopify-Webhook-Id", DELIVERY)
                .header("X-Shopify-Triggered-At", "2026-12-06T15:00:00.000Z").contentType("application/json")
                .body(EVENT);
    }

    private static RequestSpecification gitlab() {
        return given().header("X-Gitlab-Token", TestTenants.DEFAULT_SECRET).header("Idempotency-Key", DELIVERY)
                .header("X-Gitlab-Event-UUID", "e-1").contentType("application/json").body(EVENT);
    }

    private static RequestSpecification razorpay() {
        return given().header("X-Razorpay-Signature", Signed.signature(TestTenants.DEFAULT_SECRET, bytes(EVENT)))
                .header("x-razorpay-event-id", DELIVERY).contentType("application/json").body(EVENT);
    }

    private static RequestSpecification sentryAt(long ts) {
        return given().header("Sentry-Hook-Signature", Signed.signature(TestTenants.DEFAULT_SECRET, bytes(EVENT)))
                .header("Sentry-Hook-Timestamp", Long.toString(ts)).header("Request-ID", DELIVERY)
                .contentType("application/json").body(EVENT);
    }

    private static RequestSpecification zendeskAt(Instant at) {
        String ts = at.toString();
        return given().header("X-Zendesk-Webhook-Signature", base64Hmac(ts + EVENT))
                .header("X-Zendesk-Webhook-Signature-Timestamp", ts).header("x-zendesk-webhook-invocation-id", DELIVERY)
                .contentType("application/json").body(EVENT);
    }

    private static RequestSpecification twilio(Vector v) {
        RequestSpecification request = given().config(RestAssured.config().encoderConfig(
                EncoderConfig.encoderConfig().appendDefaultContentCharsetToContentTypeIfUndefined(false)));
        for (Map.Entry<String, String> h : v.headers().entrySet()) {
            if (h.getKey().equalsIgnoreCase("Content-Type")) {
                request.contentType(h.getValue());
            } else {
                request.header(h.getKey(), h.getValue());
            }
        }
        return request.body(new String(v.body(), StandardCharsets.UTF_8));
    }

    private static String base64Hmac(String content) {
        return Base64.getEncoder().encodeToString(Hmac.hmacSha256(TestTenants.DEFAULT_SECRET, bytes(content)));
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
