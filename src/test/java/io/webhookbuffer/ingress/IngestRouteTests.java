package io.webhookbuffer.ingress;

import static io.restassured.RestAssured.given;
import static io.webhookbuffer.testsupport.TestTenants.tenant;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.webhookbuffer.common.Hmac;
import io.webhookbuffer.testsupport.Db;
import io.webhookbuffer.testsupport.EventKeys;
import io.webhookbuffer.testsupport.Signed;
import io.webhookbuffer.testsupport.TestTenants;

/** The ingest contract against the real app, PostgreSQL and Redis: every response code and what it leaves behind. */
@QuarkusTest
class IngestRouteTests {

    private static final String SECRET = TestTenants.DEFAULT_SECRET;

    @Inject
    Pool pool;

    @Test
    void validEventIsBufferedAndReadableByAnotherConnectionAtOnce() {
        String t = tenant().provision();
        Signed.webhook(SECRET, "{\"n\":1}").header("X-Event-ID", "evt-1")
                .when().post("/webhook/" + t)
                .then().statusCode(202).body("status", equalTo("buffered"))
                .body("eventId", equalTo(EventKeys.bound("evt-1", "{\"n\":1}")));
        // No await: a 202 means committed, so a separate connection must see the row right away.
        assertEquals(1, Db.queued(pool, t));
        assertEquals(1, Db.dedupeRows(pool, t));
    }

    @Test
    void theSameEventTwiceIsBufferedOnceThenDeduplicated() {
        // A provider's retry: the same X-Event-ID and the same body. (The same id over another body is another event:
        // UnsignedIdsTests.)
        String t = tenant().provision();
        Signed.webhook(SECRET, "{\"a\":1}").header("X-Event-ID", "dup-1").post("/webhook/" + t)
                .then().statusCode(202);
        Signed.webhook(SECRET, "{\"a\":1}").header("X-Event-ID", "dup-1").post("/webhook/" + t)
                .then().statusCode(200).body("status", equalTo("deduplicated"))
                .body("eventId", equalTo(EventKeys.bound("dup-1", "{\"a\":1}")));
        assertEquals(1, Db.queued(pool, t));
    }

    @Test
    void withoutEventIdTheBodyHashIsTheDedupeKey() {
        String t = tenant().provision();
        byte[] body = "{\"no\":\"id\"}".getBytes(StandardCharsets.UTF_8);
        String expected = HexFormat.of().formatHex(Hmac.sha256(body));
        Signed.webhook(SECRET, body).post("/webhook/" + t).then().statusCode(202).body("eventId", equalTo(expected));
        Signed.webhook(SECRET, body).post("/webhook/" + t).then().statusCode(200).body("eventId", equalTo(expected));
        assertEquals(1, Db.queued(pool, t));
    }

    @Test
    void fiftyConcurrentCopiesOfOneEventAreAcceptedExactlyOnce() throws Exception {
        String t = tenant().provision();
        ExecutorService pool50 = Executors.newFixedThreadPool(50);
        try {
            List<Callable<Integer>> sends = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                sends.add(() -> Signed.webhook(SECRET, "{\"same\":true}").header("X-Event-ID", "race-1")
                        .post("/webhook/" + t).statusCode());
            }
            List<Integer> codes = new ArrayList<>();
            for (Future<Integer> f : pool50.invokeAll(sends)) {
                codes.add(f.get());
            }
            assertEquals(1, codes.stream().filter(c -> c == 202).count(), "exactly one 202: " + codes);
            assertEquals(49, codes.stream().filter(c -> c == 200).count(), "the rest deduplicated: " + codes);
        } finally {
            pool50.shutdownNow();
        }
        assertEquals(1, Db.queued(pool, t));
        assertEquals(1, Db.dedupeRows(pool, t));
    }

    @Test
    void previousSecretIsAcceptedDuringRotation() {
        String t = tenant().secrets("new-secret-aaaa", "old-secret-bbbb").provision();
        Signed.webhook("old-secret-bbbb", "{\"rot\":1}").post("/webhook/" + t).then().statusCode(202);
        Signed.webhook("new-secret-aaaa", "{\"rot\":2}").post("/webhook/" + t).then().statusCode(202);
        Signed.webhook("unrelated-secret", "{\"rot\":3}").post("/webhook/" + t).then().statusCode(401);
    }

    @Test
    void tamperedBodyIsRefusedAndLeavesNoRow() {
        String t = tenant().provision();
        String signature = Signed.signature(SECRET, "{\"amount\":1}".getBytes(StandardCharsets.UTF_8));
        given().header("X-Signature", signature).body("{\"amount\":1000}").post("/webhook/" + t)
                .then().statusCode(401).body("status", equalTo("invalid_signature"))
                .body("reason", equalTo("bad_signature"));
        assertEquals(0, Db.queued(pool, t));
        assertEquals(0, Db.dedupeRows(pool, t));
    }

    @Test
    void missingOrMalformedSignaturesAre401NeverA500() {
        String t = tenant().provision();
        given().body("{}").post("/webhook/" + t).then().statusCode(401).body("reason", equalTo("missing_signature"));
        for (String bad : new String[] { "abc", "zz", "0".repeat(63), "0".repeat(65), "g".repeat(64),
                "sha256=" + "0".repeat(64), "\u00e9".repeat(32), "0".repeat(5000) }) {
            given().header("X-Signature", bad).body("{}").post("/webhook/" + t)
                    .then().statusCode(401).body("reason", equalTo("malformed_signature"));
        }
        assertEquals(0, Db.queued(pool, t));
    }

    @Test
    void unknownTenantIs404WithNoRowAndIsNotCachedAsKnown() {
        String t = "unknown-" + System.nanoTime();
        Signed.webhook(SECRET, "{\"x\":1}").post("/webhook/" + t).then().statusCode(404)
                .body("status", equalTo("unknown_tenant"));
        assertEquals(0, Db.queued(pool, t));
        // Provisioned now: the earlier miss must not keep it unknown (the command invalidates the directory).
        Signed.command(TestTenants.tenant().json()).put("/control/tenants/" + t).then().statusCode(200);
        Signed.webhook(SECRET, "{\"x\":1}").post("/webhook/" + t).then().statusCode(202);
    }

    @Test
    void inactiveTenantIs404() {
        String t = tenant().active(false).provision();
        Signed.webhook(SECRET, "{\"x\":1}").post("/webhook/" + t).then().statusCode(404);
        assertEquals(0, Db.queued(pool, t));
    }

    @Test
    void tenantIdOutsideThePatternIs404() {
        Signed.webhook(SECRET, "{}").post("/webhook/bad.id").then().statusCode(404);
        Signed.webhook(SECRET, "{}").post("/webhook/" + "a".repeat(65)).then().statusCode(404);
        Signed.webhook(SECRET, "{}").post("/webhook/").then().statusCode(404);
    }

    @Test
    void otherMethodsAre405WithAllowPost() {
        String t = tenant().provision();
        for (String method : new String[] { "GET", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS" }) {
            given().request(method, "/webhook/" + t).then().statusCode(405).header("Allow", "POST");
        }
    }

    @Test
    void bodyOverTheTenantLimitIs413AndAtTheLimitIsAccepted() {
        String t = tenant().maxBodyBytes(100).provision();
        byte[] atLimit = new byte[100];
        byte[] overLimit = new byte[101];
        Signed.webhook(SECRET, overLimit).post("/webhook/" + t).then().statusCode(413)
                .body("status", equalTo("payload_too_large"));
        Signed.webhook(SECRET, atLimit).post("/webhook/" + t).then().statusCode(202);
        assertEquals(1, Db.queued(pool, t));
    }

    @Test
    void bodyOverTheDefaultLimitIs413() {
        String t = tenant().provision();
        Signed.webhook(SECRET, new byte[1024 * 1024 + 1]).post("/webhook/" + t).then().statusCode(413);
        Signed.webhook(SECRET, new byte[1024 * 1024]).post("/webhook/" + t).then().statusCode(202);
    }

    @Test
    void rateLimitAdmitsTheLimitThenAnswers429WithRetryAfterAndDuplicatesDoNotCount() {
        String t = tenant().rateLimit(3, 10).senderRetries("long").provision();
        for (int i = 0; i < 3; i++) {
            Signed.webhook(SECRET, "{\"i\":" + i + "}").header("X-Event-ID", "rl-" + i).post("/webhook/" + t)
                    .then().statusCode(202);
        }
        Response limited = Signed.webhook(SECRET, "{\"i\":3}").header("X-Event-ID", "rl-3").post("/webhook/" + t);
        assertEquals(429, limited.statusCode());
        int retryAfter = Integer.parseInt(limited.header("Retry-After"));
        assertTrue(retryAfter >= 1 && retryAfter <= 10, "Retry-After within the window: " + retryAfter);
        // A duplicate of an accepted event is answered as such, and does not take a slot.
        Signed.webhook(SECRET, "{\"i\":0}").header("X-Event-ID", "rl-0").post("/webhook/" + t)
                .then().statusCode(200);
        assertEquals(3, Db.queued(pool, t));
    }

    @Test
    void nonUtf8BodyIsStoredByteForByteWithoutSignatureHeaders() {
        String t = tenant().provision();
        byte[] body = new byte[256];
        for (int i = 0; i < body.length; i++) {
            body[i] = (byte) (255 - i);
        }
        Signed.webhook(SECRET, body).contentType("application/octet-stream").header("User-Agent", "Provider/1.0")
                .header("X-Event-ID", "bin-1").post("/webhook/" + t).then().statusCode(202);
        Row row = Db.queueRows(pool, t).get(0);
        assertArrayEquals(body, row.getBuffer("body").getBytes());
        // The sender's Content-Type as sent (REST Assured appends a charset).
        assertTrue(row.getString("content_type").startsWith("application/octet-stream"), row.getString("content_type"));
        String headers = row.getValue("headers").toString();
        assertTrue(headers.contains("Provider/1.0"), headers);
        assertFalse(headers.toLowerCase().contains("signature"), headers);
    }
}
