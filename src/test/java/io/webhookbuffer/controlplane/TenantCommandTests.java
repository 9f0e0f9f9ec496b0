package io.webhookbuffer.controlplane;

import static io.restassured.RestAssured.given;
import static io.webhookbuffer.testsupport.TestTenants.tenant;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.containsString;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.hamcrest.Matchers;
import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.webhookbuffer.common.Hmac;
import io.webhookbuffer.testsupport.Signed;
import io.webhookbuffer.testsupport.TestTenants;

/** Signed provisioning commands against the real app, PostgreSQL and Redis. */
@QuarkusTest
class TenantCommandTests {

    private static String newId() {
        return "cmd-" + UUID.randomUUID().toString().substring(0, 18);
    }

    @Test
    void upsertStoresTheConfigAndAnswersWithoutSecrets() {
        String id = newId();
        Signed.command("{\"active\":true,\"provider\":\"generic\",\"secrets\":[\"s3cret-current\",\"s3cret-old\"],"
                + "\"rateLimit\":50,\"rateWindowSeconds\":30,\"maxBodyBytes\":2048}")
                .put("/control/tenants/" + id)
                .then().statusCode(200)
                .body("tenantId", equalTo(id)).body("active", equalTo(true)).body("provider", equalTo("generic"))
                .body("secretCount", equalTo(2))
                .body("secretFingerprints", contains(Hmac.fingerprint("s3cret-current"), Hmac.fingerprint("s3cret-old")))
                .body("rateLimit", equalTo(50)).body("rateWindowSeconds", equalTo(30)).body("maxBodyBytes", equalTo(2048))
                .body(not(containsString("s3cret")));
        Signed.command("").get("/control/tenants/" + id)
                .then().statusCode(200).body("secretCount", equalTo(2)).body("rateLimit", equalTo(50))
                .body(not(containsString("s3cret")));
    }

    @Test
    void upsertIsIdempotentAndOmittedFieldsKeepTheirValue() {
        String id = newId();
        String body = "{\"secrets\":[\"idem-secret-1\"],\"rateLimit\":7}";
        Signed.command(body).put("/control/tenants/" + id).then().statusCode(200).body("rateLimit", equalTo(7))
                .body("rateWindowSeconds", equalTo(10)).body("active", equalTo(true));
        Signed.command(body).put("/control/tenants/" + id).then().statusCode(200).body("rateLimit", equalTo(7));
        Signed.command("{\"active\":false}").put("/control/tenants/" + id).then().statusCode(200)
                .body("active", equalTo(false)).body("secretCount", equalTo(1)).body("rateLimit", equalTo(7));
        // Deactivated: ingest answers 404 at once (the command invalidated this replica's cache).
        Signed.webhook("idem-secret-1", "{}").post("/webhook/" + id).then().statusCode(404);
        Signed.command("{\"active\":true}").put("/control/tenants/" + id).then().statusCode(200);
        Signed.webhook("idem-secret-1", "{}").post("/webhook/" + id).then().statusCode(202);
    }

    @Test
    void secretRotationTakesEffectAtOnce() {
        String id = tenant().secrets("rot-old-secret").provision();
        Signed.command("{\"secrets\":[\"rot-new-secret\",\"rot-old-secret\"]}").put("/control/tenants/" + id)
                .then().statusCode(200).body("secretCount", equalTo(2));
        Signed.webhook("rot-new-secret", "{\"a\":1}").post("/webhook/" + id).then().statusCode(202);
        Signed.command("{\"secrets\":[\"rot-new-secret\"]}").put("/control/tenants/" + id).then().statusCode(200);
        Signed.webhook("rot-old-secret", "{\"a\":2}").post("/webhook/" + id).then().statusCode(401);
    }

    @Test
    void staleTimestampIsRefusedAndChangesNothing() {
        String id = newId();
        long now = System.currentTimeMillis() / 1000;
        // A few seconds past the edge: the buffer reads its own clock, a second or so after ours. The exact
        // boundary (±300 accepted, ±301 refused) is CommandSignatureTests'.
        for (long ts : new long[] { now - 305, now + 305 }) {
            Signed.command(tenant().json(), ts, Signed.nonce(), Signed.CONTROL_SECRET).put("/control/tenants/" + id)
                    .then().statusCode(401).contentType("application/problem+json")
                    .body("reason", equalTo("stale_timestamp"));
        }
        Signed.command("").get("/control/tenants/" + id).then().statusCode(404);
    }

    @Test
    void moreActiveSecretsThanRotationNeedsAreRefused() {
        // Every active secret costs one HMAC over every request's body, authentic or not: three cover a rotation
        // (previous, current, next), more only multiply what a flood of bad signatures costs.
        String id = newId();
        Signed.command("{\"secrets\":[\"cap-1\",\"cap-2\",\"cap-3\",\"cap-4\"]}").put("/control/tenants/" + id)
                .then().statusCode(400).contentType(containsString("application/problem+json"))
                .body("reason", equalTo("invalid_request")).body("detail", containsString("1 to 3"))
                .body(not(containsString("cap-4")));
        Signed.command("{\"secrets\":[\"cap-1\",\"cap-2\",\"cap-3\"]}").put("/control/tenants/" + id)
                .then().statusCode(200).body("secretCount", equalTo(3));
        Signed.command("{\"add\":\"cap-4\"}").post("/control/tenants/" + id + "/secrets")
                .then().statusCode(409).body("detail", containsString("retire one first"));
    }

    @Test
    void reusedNonceIsRefused() {
        String id = newId();
        String nonce = Signed.nonce();
        long now = System.currentTimeMillis() / 1000;
        Signed.command(tenant().json(), now, nonce, Signed.CONTROL_SECRET).put("/control/tenants/" + id)
                .then().statusCode(200);
        Signed.command(tenant().json(), now, nonce, Signed.CONTROL_SECRET).put("/control/tenants/" + id)
                .then().statusCode(401).body("reason", equalTo("replayed_nonce"));
    }

    @Test
    void twoIdenticalCommandsInParallelExactlyOneIsAccepted() throws Exception {
        String id = newId();
        String nonce = Signed.nonce();
        long now = System.currentTimeMillis() / 1000;
        String body = tenant().json();
        ExecutorService executor = Executors.newFixedThreadPool(8);
        try {
            List<Callable<Integer>> sends = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                sends.add(() -> Signed.command(body, now, nonce, Signed.CONTROL_SECRET).put("/control/tenants/" + id)
                        .statusCode());
            }
            List<Integer> codes = new ArrayList<>();
            for (Future<Integer> f : executor.invokeAll(sends)) {
                codes.add(f.get());
            }
            assertEquals(1, codes.stream().filter(c -> c == 200).count(), codes.toString());
            assertEquals(7, codes.stream().filter(c -> c == 401).count(), codes.toString());
        } finally {
            executor.shutdownNow();
        }
    }

    @Test
    void tamperedBodyIsRefusedAndChangesNothing() {
        String id = newId();
        long now = System.currentTimeMillis() / 1000;
        String nonce = Signed.nonce();
        String signed = "{\"secrets\":[\"a-secret-value\"],\"rateLimit\":5}";
        String sent = "{\"secrets\":[\"a-secret-value\"],\"rateLimit\":5000}";
        String signature = CommandSignature.signV2(Signed.CONTROL_SECRET, CommandSignature.Direction.COMMAND, "PUT",
                "/control/tenants/" + id, Long.toString(now), nonce, signed.getBytes());
        given().header("x-timestamp", Long.toString(now)).header("x-nonce", nonce).header("x-signature", signature)
                .body(sent).put("/control/tenants/" + id)
                .then().statusCode(401).body("reason", equalTo("bad_signature"));
        Signed.command(tenant().json(), now, Signed.nonce(), "not-the-control-secret").put("/control/tenants/" + id)
                .then().statusCode(401).body("reason", equalTo("bad_signature"));
        Signed.command("").get("/control/tenants/" + id).then().statusCode(404);
    }

    @Test
    void missingOrMalformedHeadersAreRefused() {
        String id = newId();
        given().body(tenant().json()).put("/control/tenants/" + id)
                .then().statusCode(401).body("reason", equalTo("missing_headers"));
        Signed.command(tenant().json(), System.currentTimeMillis() / 1000, "short", Signed.CONTROL_SECRET)
                .put("/control/tenants/" + id).then().statusCode(401).body("reason", equalTo("missing_headers"));
        Signed.command(tenant().json(), System.currentTimeMillis() / 1000, "has+plus/and-slash-chars",
                Signed.CONTROL_SECRET).put("/control/tenants/" + id)
                .then().statusCode(401).body("reason", equalTo("missing_headers"));
    }

    @Test
    void invalidCommandsAre400WithAReason() {
        String id = newId();
        Signed.command("{\"provider\":\"carrier-pigeon\",\"secrets\":[\"x-secret\"]}").put("/control/tenants/" + id)
                .then().statusCode(400).body("reason", equalTo("invalid_request"))
                .body("detail", containsString("provider"));
        Signed.command("{\"rateLimit\":10}").put("/control/tenants/" + id)
                .then().statusCode(400).body("detail", containsString("secrets"));
        Signed.command("{\"secrets\":[\"x-secret\"],\"rateLimit\":0}").put("/control/tenants/" + id)
                .then().statusCode(400).body("detail", containsString("rateLimit"));
        Signed.command("{\"secrets\":[\"x-secret\"],\"rateLimt\":10}").put("/control/tenants/" + id)
                .then().statusCode(400).body("detail", containsString("rateLimt"));
        Signed.command("not json").put("/control/tenants/" + id).then().statusCode(400);
        Signed.command("{\"secrets\":[]}").put("/control/tenants/" + id).then().statusCode(400);
        Signed.command(tenant().json()).put("/control/tenants/bad.id").then().statusCode(400);
        Signed.command("").get("/control/tenants/" + id).then().statusCode(404).body("reason", equalTo("not_found"));
    }

    @Test
    void backlogShowsDepthAndAgeOfBufferedEvents() {
        String id = tenant().provision();
        Signed.command("").get("/control/tenants/" + id + "/backlog").then().statusCode(200)
                .body("depth", equalTo(0)).body("state", equalTo("empty"));
        Signed.webhook(TestTenants.DEFAULT_SECRET, "{\"b\":1}").post("/webhook/" + id).then().statusCode(202);
        Signed.webhook(TestTenants.DEFAULT_SECRET, "{\"b\":2}").post("/webhook/" + id).then().statusCode(202);
        Signed.command("").get("/control/tenants/" + id + "/backlog").then().statusCode(200)
                .body("depth", equalTo(2)).body("state", equalTo("pending"))
                .body("oldestAgeSeconds", Matchers.greaterThanOrEqualTo(0));
        given().get("/control/tenants/" + id + "/backlog").then().statusCode(401);
    }

    @Test
    void getAnswersFingerprintsOnly() {
        String id = tenant().secrets("fp-secret-one").provision();
        Signed.command("").get("/control/tenants/" + id).then().statusCode(200)
                .body("secretFingerprints", hasSize(1))
                .body("secretFingerprints[0]", equalTo(Hmac.fingerprint("fp-secret-one")))
                .body(not(containsString("fp-secret-one")));
    }

}
