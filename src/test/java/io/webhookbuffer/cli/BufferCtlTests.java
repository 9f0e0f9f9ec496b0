package io.webhookbuffer.cli;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import io.webhookbuffer.common.Hmac;
import io.webhookbuffer.controlplane.ControlPlaneProfile;
import io.webhookbuffer.testsupport.EventKeys;
import io.webhookbuffer.testsupport.FakeOrigin;
import io.webhookbuffer.testsupport.FakeOrigin.Answer;
import io.webhookbuffer.testsupport.InjectFakeOrigin;
import io.webhookbuffer.testsupport.Signed;

/** The operator CLI end to end: its main logic run in-process against the running app (real HTTP, PG, Redis). */
@QuarkusTest
@TestProfile(ControlPlaneProfile.class)
class BufferCtlTests {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration PATIENCE = Duration.ofSeconds(20);

    @InjectFakeOrigin
    FakeOrigin origin;

    /** One run's exit code and output. */
    record Result(int code, String out, String err) {
        JsonNode json() throws Exception {
            return JSON.readTree(out);
        }
    }

    private static Result ctlWithSecret(String secret, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = BufferCtl.run(args, new PrintWriter(out), new PrintWriter(err),
                Map.of("BUFFERCTL_URL", "http://localhost:" + RestAssured.port, "BUFFERCTL_SECRET", secret));
        return new Result(code, out.toString(), err.toString());
    }

    private static Result ctl(String... args) {
        return ctlWithSecret(Signed.CONTROL_SECRET, args);
    }

    private static String newId() {
        return "ctl-" + UUID.randomUUID().toString().substring(0, 18);
    }

    @Test
    void provisionsSteersAndRotatesATenant() throws Exception {
        String id = newId();
        Result put = ctl("tenant", "put", id, "--secret", "ctl-secret-one", "--rate-limit", "40", "--json");
        assertEquals(0, put.code(), put.err());
        assertEquals(40, put.json().get("rateLimit").asInt());
        assertEquals(false, put.json().get("replay").asBoolean());
        assertTrue(ctl("tenant", "put", id, "--secret", "ctl-secret-one", "--rate-limit", "40", "--json").json()
                .get("replay").asBoolean(), "the same command again is a replay");

        Result human = ctl("tenant", "get", id);
        assertEquals(0, human.code());
        assertTrue(human.out().contains("rateLimit: 40"), human.out());
        assertTrue(!human.out().contains("ctl-secret-one"), "secrets are never printed");

        assertEquals(true, ctl("pause", id, "--json").json().get("paused").asBoolean());
        assertEquals("paused", ctl("backlog", id, "--json").json().get("state").asText());
        assertEquals(false, ctl("resume", id, "--json").json().get("paused").asBoolean());
        assertEquals(false, ctl("deactivate", id, "--json").json().get("active").asBoolean());
        Signed.webhook("ctl-secret-one", "{}").post("/webhook/" + id).then().statusCode(404);
        assertEquals(true, ctl("activate", id, "--json").json().get("active").asBoolean());

        assertEquals(0, ctl("rotate-secret", id, "--add", "ctl-secret-two").code());
        Result retired = ctl("rotate-secret", id, "--retire", Hmac.fingerprint("ctl-secret-one"), "--json");
        assertEquals(1, retired.json().get("secretCount").asInt());
        Signed.webhook("ctl-secret-two", "{}").post("/webhook/" + id).then().statusCode(202);
        Signed.webhook("ctl-secret-one", "{}").post("/webhook/" + id).then().statusCode(401);
    }

    /** A tenant origin's own credentials: set by options, shown as fingerprints, never printed. */
    @Test
    void setsATenantOriginsOwnCredentialsAndShowsOnlyFingerprints() throws Exception {
        String id = newId();
        Result put = ctl("tenant", "put", id, "--secret", "ctl-own-secret", "--origin-url", "http://127.0.0.1:9004",
                "--origin-token", "ctl-own-token", "--origin-signing-secret", "ctl-own-signing", "--json");
        assertEquals(0, put.code(), put.err());
        assertEquals(Hmac.fingerprint("ctl-own-token"), put.json().get("originTokenFingerprint").asText());
        Result human = ctl("tenant", "get", id);
        assertTrue(human.out().contains("originSigningSecretFingerprint: " + Hmac.fingerprint("ctl-own-signing")),
                human.out());
        assertTrue(!human.out().contains("ctl-own-token") && !put.out().contains("ctl-own-signing"), "never printed");
        Result status = ctl("secrets", "status", "--json");
        assertEquals(0, status.code(), status.err());
        assertTrue(status.json().get("byKey").has(status.json().get("activeKey").asText()), status.out());
    }

    /** Whether a tenant trusts its sender's traceparent: set and cleared by an option, kept when omitted. */
    @Test
    void setsWhetherATenantTrustsItsSendersTraceContext() throws Exception {
        String id = newId();
        Result put = ctl("tenant", "put", id, "--secret", "ctl-trace-secret", "--trust-trace-context", "true", "--json");
        assertEquals(0, put.code(), put.err());
        assertTrue(put.json().get("trustTraceContext").asBoolean());
        assertEquals(0, ctl("tenant", "put", id, "--rate-limit", "50").code());
        assertTrue(ctl("tenant", "get", id).out().contains("trustTraceContext: true"), "an omitted option keeps it");
        Result cleared = ctl("tenant", "put", id, "--trust-trace-context", "false", "--json");
        assertEquals(0, cleared.code(), cleared.err());
        assertFalse(cleared.json().get("trustTraceContext").asBoolean());
        Result unclear = ctl("tenant", "put", id, "--trust-trace-context", "maybe");
        assertEquals(BufferCtl.USAGE, unclear.code(), "true or false, nothing else");
        assertTrue(unclear.err().contains("--trust-trace-context"), unclear.err());
        assertFalse(ctl("tenant", "get", id, "--json").json().get("trustTraceContext").asBoolean());
    }

    @Test
    void listsReplaysAndPurgesDeadLetters() throws Exception {
        String id = newId();
        assertEquals(0, ctl("tenant", "put", id, "--secret", "ctl-dl-secret").code());
        origin.answer(id, batch -> Answer.status(400));
        Signed.webhook("ctl-dl-secret", "{\"n\":1}").header("X-Event-ID", "dl-1").post("/webhook/" + id).then()
                .statusCode(202);
        await().atMost(PATIENCE).until(() -> ctl("dead-letters", "list", id, "--json").json().get("deadLetters").size() == 1);
        JsonNode letter = ctl("dead-letters", "list", id, "--json").json().get("deadLetters").get(0);
        assertEquals(EventKeys.bound("dl-1", "{\"n\":1}"), letter.get("eventId").asText(), "the key, as delivered");
        assertEquals("{\"n\":1}", ctl("dead-letters", "get", id, letter.get("id").asText(), "--json").json()
                .get("rawBody").asText());

        Result refusedPurge = ctl("dead-letters", "purge", id);
        assertEquals(BufferCtl.USAGE, refusedPurge.code(), "purge needs a selection or --all");

        origin.answer(id, batch -> Answer.ok());
        assertEquals(1, ctl("dead-letters", "replay", id, "--id", letter.get("id").asText(), "--json").json()
                .get("replayed").asInt());
        await().atMost(PATIENCE).until(() -> origin.providerIds(id).contains("dl-1"));
        assertEquals(0, ctl("dead-letters", "purge", id, "--all", "--json").json().get("purged").asInt());
    }

    /** {@code bufferctl handshake}: opens an Asana tenant's window; another provider's tenant is refused (409). */
    @Test
    void opensAnAsanaHandshakeWindow() throws Exception {
        String id = newId();
        assertEquals(0, ctl("tenant", "put", id, "--provider", "asana", "--secret", "asana-placeholder-secret").code());
        Result opened = ctl("handshake", id, "asana", "--seconds", "120", "--json");
        assertEquals(0, opened.code(), opened.err());
        assertEquals("asana", opened.json().get("provider").asText());
        assertTrue(opened.json().has("closesAt"), opened.out());
        String other = newId();
        assertEquals(0, ctl("tenant", "put", other, "--secret", "generic-secret").code());
        Result refused = ctl("handshake", other, "asana");
        assertEquals(BufferCtl.ERROR_ANSWER, refused.code());
        assertTrue(refused.err().contains("409 (conflict)"), refused.err());
    }

    @Test
    void aRefusedCommandSaysWhichCheckFailedWithItsOwnExitCode() {
        Result wrong = ctlWithSecret("not-the-control-secret", "backlog", newId());
        assertEquals(BufferCtl.REFUSED, wrong.code());
        assertTrue(wrong.err().contains("refused (bad_signature)"), wrong.err());
        assertTrue(wrong.err().contains("BUFFERCTL_SECRET"), wrong.err());
        assertTrue(BufferCtl.explain("stale_timestamp").contains("clock"));
        assertTrue(BufferCtl.explain("replayed_nonce").contains("nonce"));

        Result missing = ctl("tenant", "get", "no-such-tenant-ctl");
        assertEquals(BufferCtl.ERROR_ANSWER, missing.code());
        assertTrue(missing.err().contains("404 (not_found)"), missing.err());

        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = BufferCtl.run(new String[] { "backlog", "x" }, new PrintWriter(out), new PrintWriter(err),
                Map.of("BUFFERCTL_URL", "http://127.0.0.1:1", "BUFFERCTL_SECRET", "s"));
        assertEquals(BufferCtl.UNREACHABLE, code);
        assertEquals(BufferCtl.UNREACHABLE, ctl("--url", "http://127.0.0.1:1", "backlog", "x").code(),
                "an option before the command wins over BUFFERCTL_URL");
        assertEquals(BufferCtl.USAGE, ctl("no-such-command").code());
        assertEquals(BufferCtl.USAGE, ctlWithSecret("", "backlog", "x").code(), "no secret");
    }
}
