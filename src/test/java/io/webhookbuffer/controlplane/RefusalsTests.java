package io.webhookbuffer.controlplane;

import static io.webhookbuffer.testsupport.TestTenants.tenant;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.path.json.JsonPath;
import io.webhookbuffer.cli.BufferCtl;
import io.webhookbuffer.ingress.RefusalLog;
import io.webhookbuffer.testsupport.Signed;

/**
 * "Why was it refused?" against the real app and Redis: refused webhooks of a tenant are listed with their reason and
 * the names (never the values) of the signature headers, merged in Redis with what other replicas appended (the test
 * plays another replica), bounded per tenant; requests for ids no tenant has leave nothing.
 */
@QuarkusTest
class RefusalsTests {

    private static final Duration FLUSHED = Duration.ofSeconds(10);

    @Inject
    RedisDataSource redis;

    private static JsonPath refusals(String tenant) {
        return Signed.command("").get("/control/tenants/" + tenant + "/refusals").then().statusCode(200).extract()
                .jsonPath();
    }

    private static void badSignature(String tenant, String body) {
        RestAssured.given().header("X-Signature", "deadbeef00" + "ab".repeat(27)).contentType("application/json")
                .body(body).post("/webhook/" + tenant).then().statusCode(401);
    }

    @Test
    void aBadSignatureIsListedWithItsReasonAndTheHeaderNameButNotItsValue() {
        String t = tenant().provision();
        badSignature(t, "{\"a\":1}");
        RestAssured.given().contentType("application/json").body("{\"b\":22}").post("/webhook/" + t).then()
                .statusCode(401);

        JsonPath answer = refusals(t);
        assertTrue(answer.getBoolean("complete"));
        assertEquals(2, answer.getList("refusals").size(), answer.prettify());
        assertEquals("missing_signature", answer.getString("refusals[0].reason"), "newest first");
        assertEquals(List.of(), answer.getList("refusals[0].signatureHeaders"));
        assertEquals(8, answer.getLong("refusals[0].bodyBytes"));
        assertEquals(401, answer.getInt("refusals[1].status"));
        assertEquals("invalid_signature", answer.getString("refusals[1].outcome"));
        assertEquals("bad_signature", answer.getString("refusals[1].reason"));
        assertEquals(List.of("x-signature"), answer.getList("refusals[1].signatureHeaders"));
        assertEquals("127.0.0.1", answer.getString("refusals[1].client"));
        assertFalse(answer.prettify().contains("deadbeef"), "never a header value");
        assertFalse(answer.prettify().contains("\\\"a\\\""), "never a body");
    }

    @Test
    void everyReplicasRefusalsAreMergedThroughRedisAndBounded() {
        String t = tenant().provision();
        badSignature(t, "{\"mine\":1}");
        String key = "wb:refusals:" + t;
        await().atMost(FLUSHED).until(() -> redis.list(String.class).llen(key) == 1);

        // Another replica's refusal, as its flush appends it.
        redis.list(String.class).lpush(key, "{\"at\":\"2999-01-01T00:00:00Z\",\"status\":429,\"outcome\":"
                + "\"rate_limited\",\"reason\":null,\"signatureHeaders\":[],\"bodyBytes\":5,\"client\":\"10.1.2.3\"}");
        JsonPath merged = refusals(t);
        assertEquals(2, merged.getList("refusals").size(), merged.prettify());
        assertEquals("10.1.2.3", merged.getString("refusals[0].client"), "the other replica's, newest");
        assertEquals("bad_signature", merged.getString("refusals[1].reason"), "this replica's, listed once");

        for (int i = 0; i < RefusalLog.PER_TENANT + 5; i++) {
            badSignature(t, "{\"n\":" + i + "}");
        }
        await().atMost(FLUSHED).until(() -> refusals(t).getList("refusals").size() == RefusalLog.PER_TENANT
                && redis.list(String.class).llen(key) == RefusalLog.PER_TENANT);
        assertTrue(redis.key().ttl(key) > 0, "the list expires");
    }

    @Test
    void requestsForIdsNoTenantHasLeaveNothing() {
        String unknown = "nobody-" + UUID.randomUUID().toString().substring(0, 8);
        RestAssured.given().header("X-Signature", "00").body("{}").post("/webhook/" + unknown).then().statusCode(404);
        assertEquals(0, refusals(unknown).getList("refusals").size());
        await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(3))
                .until(() -> !redis.key().exists("wb:refusals:" + unknown));
    }

    @Test
    void bufferctlRefusalsPrintsThem() {
        String t = tenant().provision();
        badSignature(t, "{\"a\":1}");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = BufferCtl.run(new String[] { "refusals", t, "--json" }, new PrintWriter(out), new PrintWriter(err),
                Map.of("BUFFERCTL_URL", "http://localhost:" + RestAssured.port, "BUFFERCTL_SECRET",
                        Signed.CONTROL_SECRET));
        assertEquals(BufferCtl.OK, code, err.toString());
        assertEquals("bad_signature", JsonPath.from(out.toString()).getString("refusals[0].reason"), out.toString());
    }
}
