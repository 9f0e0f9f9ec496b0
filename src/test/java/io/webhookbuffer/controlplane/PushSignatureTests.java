package io.webhookbuffer.controlplane;

import static io.webhookbuffer.testsupport.TestTenants.tenant;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.vertx.mutiny.sqlclient.Pool;
import io.webhookbuffer.demo.DemoControlPlane;
import io.webhookbuffer.testsupport.Db;
import io.webhookbuffer.testsupport.Events;
import io.webhookbuffer.testsupport.InjectControlPlane;
import io.webhookbuffer.testsupport.Signed;
import io.webhookbuffer.usage.UsageFlusher;

/**
 * Pushes signed in v2 ({@code buffer.control.push-signature-version=2}) to the real demo control plane, which checks
 * them for the direction {@code push}: the buffer's pushes pass, a command's signature does not.
 */
@QuarkusTest
@TestProfile(PushSignatureTests.V2Pushes.class)
class PushSignatureTests {

    private static final Duration PATIENCE = Duration.ofSeconds(20);
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    /** The seam profile, pushing v2. */
    public static class V2Pushes extends ControlPlaneProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            Map<String, String> config = new HashMap<>(super.getConfigOverrides());
            config.put("buffer.control.push-signature-version", "2");
            return config;
        }
    }

    @InjectControlPlane
    DemoControlPlane plane;

    @Inject
    UsageReporter reporter;

    @Inject
    UsageFlusher flusher;

    @Inject
    Pool pool;

    @Test
    void theBuffersPushesAreSignedInV2AndVerifyAsPushes() {
        String t = tenant().provision();
        Events.accept(t, "p1");
        Db.removeUsage(pool); // else the report pushes every earlier test's tenant too
        flusher.flush().await().atMost(PATIENCE); // the counts a snapshot is made of
        long refused = plane.stats().get("refused");
        long v2 = plane.stats().get("v2Pushes");
        assertEquals(0, reporter.report().await().atMost(PATIENCE).failed());
        assertEquals(refused, plane.stats().get("refused"), "every push verified");
        assertEquals(0L, plane.stats().get("v1Pushes"));
        assertEquals(true, plane.stats().get("v2Pushes") > v2, plane.stats().toString());
    }

    @Test
    void aCommandSignatureIsRefusedAsAPush() throws Exception {
        byte[] body = "{\"events\":[]}".getBytes(StandardCharsets.UTF_8);
        assertEquals(401, push("command", body), "signed for the buffer's /control, not for the control plane");
        assertEquals(200, push("push", body));
    }

    private int push(String direction, byte[] body) throws Exception {
        String ts = Long.toString(System.currentTimeMillis() / 1000);
        String nonce = Signed.nonce();
        String signature = Signed.v2(Signed.CONTROL_SECRET, direction, "POST", "/lifecycle-events", ts, nonce, body);
        HttpRequest request = HttpRequest.newBuilder(URI.create(plane.baseUrl() + "/lifecycle-events"))
                .header("x-timestamp", ts).header("x-nonce", nonce).header("x-signature", signature)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build();
        return HTTP.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
    }
}
