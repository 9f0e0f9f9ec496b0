package io.webhookbuffer.ingress;

import static io.restassured.RestAssured.given;
import static io.webhookbuffer.testsupport.TestTenants.tenant;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.logging.Level;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.webhookbuffer.testsupport.CapturedLog;
import io.webhookbuffer.testsupport.RawHttp;
import io.webhookbuffer.testsupport.Signed;
import io.webhookbuffer.testsupport.TestTenants;
import io.webhookbuffer.verify.QueryHandshake;

/**
 * The failed-verification budget and the verification pool, over HTTP against the real app: an address that earned
 * its 401s is refused without a MAC, forwarded headers are not trusted by default, and a large body is MACed off the
 * event loop with the same answers as a small one.
 */
@QuarkusTest
class FailedVerificationTests {

    private static final String BAD = "00".repeat(32);

    @Inject
    InFlightBytes inFlight;

    /**
     * Issue 40, weakness 2: anyone can point a provider's webhook with a wrong secret at a tenant's URL, and the
     * provider's own addresses then carry both the forgeries and the genuine events. 25 bad signatures from one
     * address, then the genuine events from it: every one is verified and accepted (GitHub never retries a refusal).
     */
    @Test
    void aSignedEventIsAcceptedWhateverItsAddressSentBefore() {
        String tenant = tenant().provision();
        for (int i = 0; i < 25; i++) {
            given().header("X-Signature", BAD).body("{\"n\":" + i + "}").post("/webhook/" + tenant)
                    .then().statusCode(401).body("reason", equalTo("bad_signature"));
        }
        for (int i = 0; i < 10; i++) {
            Signed.webhook(TestTenants.DEFAULT_SECRET, "{\"ok\":" + i + "}").post("/webhook/" + tenant).then()
                    .statusCode(202);
        }
        // The forgeries are still refused for what they are, one by one.
        given().header("X-Signature", BAD).body("{}").post("/webhook/" + tenant).then().statusCode(401);
    }

    /** A GET check's refusals (Meta's wrong verify tokens) never cost the right one its answer. */
    @Test
    void wrongMetaVerifyTokensDoNotRefuseTheRightOne() {
        String secret = "meta-secret-for-the-budget";
        String tenant = tenant().provider("meta").secrets(secret).provision();
        for (int i = 0; i < 25; i++) {
            given().urlEncodingEnabled(false).get("/webhook/" + tenant + "?hub.mode=subscribe&hub.verify_token=guess" + i
                    + "&hub.challenge=1").then().statusCode(401).body("reason", equalTo("bad_verify_token"));
        }
        given().urlEncodingEnabled(false).get("/webhook/" + tenant + "?hub.mode=subscribe&hub.verify_token="
                + QueryHandshake.metaVerifyToken(secret) + "&hub.challenge=right").then().statusCode(200)
                .body(equalTo("right"));
    }

    /**
     * A large body is held off the heap as it arrives and MACed there on the pool (IngressGate, CheckedBody): a forged
     * one is answered 401 from that check, never copied onto the heap nor verified again; a genuine one is copied and
     * its dedupe key computed on the pool, but it is not MACed again. Every MAC and the key run off the event loop;
     * the answers are those of a small body.
     */
    @Test
    void aLargeBodyIsCheckedAsItArrivesAndMacedOnceOnThePool() {
        String tenant = tenant().maxBodyBytes(1 << 20).provision();
        byte[] body = jsonString(200 * 1024);
        List<String> messages;
        try (CapturedLog log = CapturedLog.start(Level.FINE, IngestService.class, CheckedBody.class)) {
            Signed.webhook(TestTenants.DEFAULT_SECRET, body).post("/webhook/" + tenant).then().statusCode(202);
            Signed.webhook(TestTenants.PREVIOUS_SECRET + "-not", body).post("/webhook/" + tenant).then().statusCode(401)
                    .body("reason", equalTo("bad_signature"));
            Signed.webhook(TestTenants.DEFAULT_SECRET, "{\"small\":true}".getBytes(StandardCharsets.UTF_8))
                    .post("/webhook/" + tenant).then().statusCode(202);
            messages = log.entries().stream().map(CapturedLog.Entry::message).toList();
        }
        List<String> ours = messages.stream().filter(m -> m.contains(tenant)).toList();
        assertTrue(ours.stream().allMatch(m -> m.contains(VerificationPool.THREAD_NAME)), "all on the pool: " + ours);
        assertEquals(2, ours.stream().filter(m -> m.startsWith("Checked 204800 bytes off the heap")).count(),
                "both large bodies were checked off the heap: " + ours);
        assertEquals(0, ours.stream().filter(m -> m.startsWith("Verified 204800 bytes")).count(),
                "neither was MACed again: " + ours);
        assertEquals(1, ours.stream().filter(m -> m.startsWith("Keyed 204800 verified bytes")).count(),
                "the genuine large body, and only it, had its dedupe key computed on the pool: " + ours);
        assertEquals(3, ours.size(), "and nothing else: " + ours);
    }

    /**
     * One forged body of 13 MiB counts 208 of the tenant's failures (one per 64 KiB MACed), past the guard's 200: the
     * tenant is guarded at once, as 208 small forged bodies would guard it. Two of its large bodies may be checked at
     * a time; a third is answered 503 verification_busy before a byte of it is read. Counted as one failure, as
     * before, the forged body left the tenant unguarded and the third was read.
     */
    @Test
    void oneForgedLargeBodyGuardsItsTenantsLargeBodies() throws Exception {
        String tenant = tenant().maxBodyBytes(16 << 20).provision();
        assertAForgedBodyGuardsItsTenant(tenant, 13 << 20);
    }

    /**
     * A forged body is MACed once per active secret, and weighs that much: 8 MiB to a tenant with two secrets is 256
     * units of 64 KiB MACed, past the guard's 200, and guards the tenant's large bodies at once. Weighed by its size
     * alone (128), it left the tenant unguarded and a third large body was read.
     */
    @Test
    void aForgedLargeBodyWeighsOneMacPerActiveSecret() throws Exception {
        String tenant = tenant().secrets(TestTenants.DEFAULT_SECRET, TestTenants.PREVIOUS_SECRET).maxBodyBytes(16 << 20)
                .provision();
        assertAForgedBodyGuardsItsTenant(tenant, 8 << 20);
    }

    /** Sends one forged body of {@code size} bytes: then two large bodies are held and a third is 503 before it is read. */
    private void assertAForgedBodyGuardsItsTenant(String tenant, int size) throws Exception {
        long before = inFlight.held();
        Signed.webhook(TestTenants.DEFAULT_SECRET + "-not", jsonString(size)).post("/webhook/" + tenant)
                .then().statusCode(401).body("reason", equalTo("bad_signature"));
        awaitHeld(before); // its bytes are given back once its answer is written

        try (RawHttp first = RawHttp.open(); RawHttp second = RawHttp.open(); RawHttp third = RawHttp.open()) {
            holdLargeBodies(tenant, before, first, second);
            third.send(largeHead(tenant));
            RawHttp.Answer answer = third.answer(Duration.ofSeconds(5));
            assertEquals(503, answer.status(), answer.statusLine());
            assertTrue(answer.body().contains("verification_busy"), answer.body());
            assertTrue(answer.header("Retry-After") != null, "with Retry-After");
        }
        awaitHeld(before);
    }

    /**
     * A large body whose signature the headers refuse (here: none at all) costs no MAC, so it counts once, however
     * large: three of its tenant's large bodies are then admitted at once. Weighed by its size (208 for 13 MiB), it
     * guarded the tenant.
     */
    @Test
    void aLargeBodyRefusedByItsHeadersCountsOnce() throws Exception {
        String tenant = tenant().maxBodyBytes(16 << 20).provision();
        long before = inFlight.held();
        given().contentType("application/json").body(jsonString(13 << 20)).post("/webhook/" + tenant)
                .then().statusCode(401).body("reason", equalTo("missing_signature"));
        awaitHeld(before);

        try (RawHttp first = RawHttp.open(); RawHttp second = RawHttp.open(); RawHttp third = RawHttp.open()) {
            holdLargeBodies(tenant, before, first, second, third);
        }
        awaitHeld(before);
    }

    private static final int LARGE = 1 << 20;

    private static String largeHead(String tenant) {
        return RawHttp.head("POST /webhook/" + tenant, "Host: 127.0.0.1", "Content-Type: application/json",
                "X-Signature: " + BAD, "Content-Length: " + LARGE);
    }

    /** Starts a large body on each connection and waits until all of them are admitted and wait for the rest. */
    private void holdLargeBodies(String tenant, long before, RawHttp... connections) throws Exception {
        for (RawHttp connection : connections) {
            connection.send(largeHead(tenant)).send("\"");
        }
        // Admitted, a slot of the tenant's checks each: its first byte read into the first room of its body.
        awaitHeld(before + (long) connections.length * BodyRoom.FIRST);
    }

    private void awaitHeld(long bytes) {
        await().atMost(Duration.ofSeconds(5)).until(() -> inFlight.held() == bytes);
    }

    private static byte[] jsonString(int length) {
        byte[] body = new byte[length];
        Arrays.fill(body, (byte) 'x');
        body[0] = '"';
        body[length - 1] = '"';
        return body;
    }
}
