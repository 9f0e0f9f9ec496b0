package io.webhookbuffer.ingress;

import static io.restassured.RestAssured.given;
import static io.webhookbuffer.testsupport.TestTenants.tenant;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.stream.Stream;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.vertx.mutiny.sqlclient.Pool;
import io.webhookbuffer.testsupport.Db;
import io.webhookbuffer.testsupport.SignatureVectors;
import io.webhookbuffer.testsupport.SignatureVectors.QueryVector;
import io.webhookbuffer.testsupport.TestTenants;
import io.webhookbuffer.verify.QueryHandshake;

/**
 * The GET endpoint checks (Meta, X, Dropbox) through the real endpoint, PostgreSQL and Redis: every vector of
 * {@code query-handshakes.json} answered or refused as it says, nothing ever stored, refusals kept in the tenant's
 * refusals, and the bounds an unauthenticated sender meets (unknown tenant, another provider, a long query, the rate).
 */
@QuarkusTest
class QueryHandshakesTests {

    @Inject
    Pool pool;

    @Inject
    RefusalLog refusals;

    static Stream<Arguments> vectors() {
        // A short percent escape cannot be sent through a URI (RestAssured refuses it); the unit vector covers it.
        return SignatureVectors.queryHandshakes().stream().filter(v -> !v.query().matches(".*%[0-9A-Fa-f]?$"))
                .map(v -> Arguments.of(v.toString(), v));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("vectors")
    void everyVectorThroughTheEndpoint(String name, QueryVector v) {
        String t = tenant().provider(v.provider()).secrets(v.secrets()).provision();
        Response response = get(t, v.query());
        if ("ANSWER".equals(v.expected())) {
            response.then().statusCode(200).header("Content-Type", v.contentType())
                    .header("X-Content-Type-Options", "nosniff").header("Cache-Control", "no-store");
            assertEquals(v.body(), response.asString(), name + ": " + v.description());
            assertTrue(refusals.local(t).isEmpty(), name + ": an answer is no refusal");
        } else {
            int status = "BAD_TOKEN".equals(v.expected()) ? 401 : 400;
            response.then().statusCode(status).header("Content-Type", "application/json")
                    .body("status", equalTo("invalid_handshake"))
                    .body("reason", equalTo(QueryHandshake.Failure.valueOf(v.expected()).reason()));
            assertEquals(1, refusals.local(t).size(), name + ": the refusal is kept");
            assertEquals(status, refusals.local(t).get(0).status(), name);
        }
        assertEquals(0, Db.queued(pool, t), name + ": a GET check is never buffered");
        assertEquals(0, Db.dedupeRows(pool, t), name + ": nor deduplicated");
    }

    @Test
    void aMetaTenantAnswersItsOwnVerifyTokenAndThenBuffersSignedEvents() {
        String secret = "meta-app-secret-for-this-test";
        String t = tenant().provider("meta").secrets(secret).provision();
        String token = QueryHandshake.metaVerifyToken(secret);
        get(t, "hub.mode=subscribe&hub.verify_token=" + token + "&hub.challenge=424242").then().statusCode(200);
        // Another tenant's token (another app secret) does not open this one.
        String other = QueryHandshake.metaVerifyToken("another-app-secret");
        get(t, "hub.mode=subscribe&hub.verify_token=" + other + "&hub.challenge=424242").then().statusCode(401);
        assertEquals(0, Db.queued(pool, t));
    }

    @Test
    void aGetIsLookedUpOnlyWithAQueryAndRefusedForAnUnknownTenantOrAnotherProvider() {
        get("no-such-tenant-" + System.nanoTime(), "challenge=abc").then().statusCode(404)
                .body("status", equalTo("unknown_tenant"));
        String github = tenant().provider("github").provision();
        get(github, "challenge=abc").then().statusCode(405).header("Allow", "POST")
                .body("status", equalTo("method_not_allowed"));
        String dropbox = tenant().provider("dropbox").provision();
        given().get("/webhook/" + dropbox).then().statusCode(405).header("Allow", "POST");
        String inactive = tenant().provider("dropbox").active(false).provision();
        get(inactive, "challenge=abc").then().statusCode(404);
        get(dropbox, "challenge=" + "a".repeat(QueryHandshake.MAX_QUERY_LENGTH)).then().statusCode(400)
                .body("reason", equalTo("malformed_handshake"));
        get("bad.id", "challenge=abc").then().statusCode(404);
    }

    /**
     * X's CRC authenticates nobody, so anyone can send one: 40 forged CRCs to a tenant (and 40 to another) must not get
     * X's own CRC refused, for that tenant or the other. X disables a webhook whose CRC fails. (Before: answers were
     * paced at 30 per tenant and minute, so X's was 429 {@code handshake_rate}.)
     */
    @Test
    void forgedCrcsNeverGetXsOwnCrcRefused() throws Exception {
        String t = tenant().provider("x").provision();
        String other = tenant().provider("x").provision();
        for (int i = 0; i < 40; i++) {
            get(t, "crc_token=forged" + i);
            get(other, "crc_token=forged" + i);
        }
        String token = "x-own-" + System.nanoTime();
        get(t, "crc_token=" + token).then().statusCode(200)
                .body("response_token", equalTo("sha256=" + xResponse(TestTenants.DEFAULT_SECRET, token)));
        get(other, "crc_token=" + token).then().statusCode(200)
                .body("response_token", equalTo("sha256=" + xResponse(TestTenants.DEFAULT_SECRET, token)));
    }

    private static String xResponse(String secret, String token) throws Exception {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        return Base64.getEncoder().encodeToString(mac.doFinal(token.getBytes(StandardCharsets.US_ASCII)));
    }

    private static Response get(String tenantId, String rawQuery) {
        return given().urlEncodingEnabled(false).get("/webhook/" + tenantId + "?" + rawQuery);
    }
}
