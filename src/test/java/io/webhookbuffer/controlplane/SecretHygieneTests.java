package io.webhookbuffer.controlplane;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.webhookbuffer.testsupport.EventKeys;
import io.webhookbuffer.testsupport.Signed;
import io.webhookbuffer.testsupport.CapturedLog;

/**
 * Secrets are write-only: after provisioning, rotating, verifying good and bad signatures and refusing bad commands,
 * no response body or header and no line of the captured application log contains a secret or a computed signature.
 */
@QuarkusTest
class SecretHygieneTests {

    private static final Path LOG = CapturedLog.FILE;

    @Test
    void noSecretInAnyResponseOrLogLine() throws IOException {
        String current = "hygiene-current-" + UUID.randomUUID();
        String previous = "hygiene-previous-" + UUID.randomUUID();
        String id = "hyg-" + UUID.randomUUID().toString().substring(0, 12);
        byte[] body = "{\"pay\":1}".getBytes(StandardCharsets.UTF_8);
        String signature = Signed.signature(current, body);
        List<Response> responses = new ArrayList<>();

        responses.add(Signed.command("{\"secrets\":[\"" + current + "\",\"" + previous + "\"]}").put("/control/tenants/" + id));
        responses.add(Signed.command("{\"secrets\":[\"" + current + "\"],\"rateLimit\":-1}").put("/control/tenants/" + id));
        responses.add(Signed.command("{\"secrets\":[\"" + current + "\"],\"unknown\":\"" + current + "\"}")
                .put("/control/tenants/" + id));
        responses.add(Signed.command("{\"secrets\":[\"" + current + "\"]}", System.currentTimeMillis() / 1000,
                Signed.nonce(), "wrong-control-secret").put("/control/tenants/" + id));
        responses.add(Signed.command("").get("/control/tenants/" + id));
        responses.add(Signed.webhook(current, body).post("/webhook/" + id));
        responses.add(Signed.webhook(previous, "{\"pay\":2}").post("/webhook/" + id));
        responses.add(Signed.webhook("not-the-secret", body).post("/webhook/" + id));
        responses.add(Signed.webhook(current, "{\"tampered\":1}").header("X-Signature", signature).post("/webhook/" + id));

        assertTrue(responses.get(0).statusCode() == 200 && responses.get(5).statusCode() == 202,
                "the scenario really provisioned and ingested");
        for (Response r : responses) {
            String all = r.asString() + r.headers().toString();
            for (String secret : List.of(current, previous, signature, Signed.CONTROL_SECRET)) {
                assertFalse(all.contains(secret), "a response leaked a secret: " + r.statusCode());
            }
        }
        assertTrue(Files.exists(LOG), "the test profile writes the application log to " + LOG);
        String log = Files.readString(LOG, StandardCharsets.UTF_8);
        for (String secret : List.of(current, previous, signature, Signed.CONTROL_SECRET)) {
            assertFalse(log.contains(secret), "the log contains a secret or signature");
        }
    }

    /**
     * One ingest, with a known secret, its signature, credentials in headers and a marker in the body: the JSON log
     * line of that request carries requestId, tenantId and eventId as fields, and no line anywhere carries the
     * secret, the signature, a credential or the body.
     */
    @Test
    void jsonLogCarriesRequestTenantAndEventIdsButNoSecretCredentialOrBody() throws IOException {
        String secret = "hygiene-json-" + UUID.randomUUID();
        String id = "hyj-" + UUID.randomUUID().toString().substring(0, 12);
        String requestId = "req-" + UUID.randomUUID();
        String eventId = "evt-" + UUID.randomUUID();
        String marker = "body-marker-" + UUID.randomUUID();
        String bearer = "bearer-" + UUID.randomUUID();
        String apiKey = "apikey-" + UUID.randomUUID();
        byte[] body = ("{\"marker\":\"" + marker + "\"}").getBytes(StandardCharsets.UTF_8);
        String signature = Signed.signature(secret, body);
        Signed.command("{\"secrets\":[\"" + secret + "\"]}").put("/control/tenants/" + id).then().statusCode(200);

        Response r = Signed.webhook(secret, body).header("X-Event-ID", eventId).header("X-Request-ID", requestId)
                .header("Authorization", "Bearer " + bearer).header("X-Api-Key", apiKey).post("/webhook/" + id);
        assertTrue(r.statusCode() == 202, "stored");
        assertTrue(requestId.equals(r.header("X-Request-ID")), "the request id is echoed");
        Signed.webhook("wrong-" + secret, body).header("Authorization", "Bearer " + bearer).post("/webhook/" + id)
                .then().statusCode(401);

        ObjectMapper json = new ObjectMapper();
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> Files
                .readString(LOG, StandardCharsets.UTF_8).contains(requestId));
        List<String> lines = Files.readAllLines(LOG, StandardCharsets.UTF_8);
        JsonNode line = null;
        for (String l : lines) {
            if (l.contains(requestId)) {
                line = json.readTree(l);
            }
        }
        assertTrue(line != null && line.has("mdc"), "the request's line is JSON with its log context");
        assertTrue(requestId.equals(line.get("mdc").path("requestId").asText()), "requestId field");
        assertTrue(id.equals(line.get("mdc").path("tenantId").asText()), "tenantId field");
        assertTrue(EventKeys.bound(eventId, body).equals(line.get("mdc").path("eventId").asText()),
                "eventId field: the key (X-Event-ID bound to the body)");
        String log = String.join("\n", lines);
        for (String leaked : List.of(secret, signature, marker, bearer, apiKey)) {
            assertFalse(log.contains(leaked), "the log contains a secret, signature, credential or body");
        }
    }
}
