package io.webhookbuffer.controlplane;

import static io.restassured.RestAssured.given;
import static io.webhookbuffer.testsupport.TestTenants.tenant;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import com.sun.net.httpserver.HttpServer;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.vertx.mutiny.sqlclient.Pool;
import io.webhookbuffer.testsupport.Db;
import io.webhookbuffer.testsupport.Events;
import io.webhookbuffer.testsupport.InjectRedisProxy;
import io.webhookbuffer.testsupport.Signed;
import io.webhookbuffer.testsupport.TcpProxy;
import io.webhookbuffer.usage.UsageFlusher;

/**
 * A push signed in v1 (the default, {@code buffer.control.push-signature-version=1}) is signed with the command
 * secret in the command format, so a captured one verifies as a v1 command while {@code buffer.control.accept-v1}
 * holds. The buffer claims each v1 push's nonce in the command nonce store before sending it, so the replay is
 * refused as {@code replayed_nonce}. A small HTTP server stands in for the control plane and records the pushes.
 */
@QuarkusTest
@TestProfile(AcceptV1Profile.class)
class PushReplayTests {

    private static final Duration PATIENCE = Duration.ofSeconds(20);

    /** One request as the control plane received it. */
    record Captured(String method, String path, Map<String, String> headers, byte[] body) {
    }

    /** Answers 200 to everything and keeps what it received. */
    public static class RecordingControlPlane implements QuarkusTestResourceLifecycleManager {

        static final BlockingQueue<Captured> RECEIVED = new LinkedBlockingQueue<>();

        private HttpServer server;

        @Override
        public Map<String, String> start() {
            try {
                server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            server.createContext("/", exchange -> {
                byte[] body = exchange.getRequestBody().readAllBytes();
                Map<String, String> headers = Map.of(
                        "x-timestamp", exchange.getRequestHeaders().getFirst("x-timestamp"),
                        "x-nonce", exchange.getRequestHeaders().getFirst("x-nonce"),
                        "x-signature", exchange.getRequestHeaders().getFirst("x-signature"),
                        "content-type", exchange.getRequestHeaders().getFirst("content-type"));
                RECEIVED.add(new Captured(exchange.getRequestMethod(), exchange.getRequestURI().getRawPath(), headers,
                        body));
                exchange.sendResponseHeaders(200, -1);
                exchange.close();
            });
            server.start();
            return Map.of("buffer.control.url", "http://127.0.0.1:" + server.getAddress().getPort());
        }

        @Override
        public void stop() {
            server.stop(0);
        }
    }

    @Inject
    UsageReporter reporter;

    @Inject
    UsageFlusher flusher;

    @Inject
    ControlPlaneClient client;

    @InjectRedisProxy
    TcpProxy redis;

    @Inject
    Pool pool;

    /** Before the fix this replay answered 200 and paused the tenant. */
    @Test
    void aCapturedV1PushReplayedAsACommandIsRefused() throws Exception {
        String t = tenant().provision();
        Events.accept(t, "replay-1");
        Db.removeUsage(pool); // else the report pushes every earlier test's tenant too
        flusher.flush().await().atMost(PATIENCE);
        RecordingControlPlane.RECEIVED.clear();
        assertEquals(0, reporter.report().await().atMost(PATIENCE).failed());
        Captured push = RecordingControlPlane.RECEIVED.poll(5, TimeUnit.SECONDS);
        assertNotNull(push, "the usage report reached the control plane");
        assertEquals("POST", push.method());
        assertEquals(1, CommandSignature.version(push.headers().get("x-signature")), "pushed in v1, the default");

        given().headers(push.headers()).body(push.body())
                .post("/control/tenants/" + t + "/pause")
                .then().statusCode(401).body("reason", equalTo("replayed_nonce"));
        Signed.command("").get("/control/tenants/" + t).then().statusCode(200).body("paused", equalTo(false));
    }

    /** Redis down: a v1 push whose nonce cannot be claimed is held (the call fails, nothing is sent), not downgraded. */
    @Test
    void aV1PushIsHeldWhileTheNonceStoreIsDown() throws Exception {
        byte[] body = "{\"events\":[]}".getBytes(StandardCharsets.UTF_8);
        RecordingControlPlane.RECEIVED.clear();
        redis.cut();
        try {
            assertThrows(RuntimeException.class, () -> client.post("/lifecycle-events", body).await().atMost(PATIENCE));
        } finally {
            redis.restore();
        }
        assertNull(RecordingControlPlane.RECEIVED.poll(500, TimeUnit.MILLISECONDS), "nothing reached the control plane");
        assertEquals(200, client.post("/lifecycle-events", body).await().atMost(PATIENCE), "sent once Redis is back");
        assertNotNull(RecordingControlPlane.RECEIVED.poll(5, TimeUnit.SECONDS));
    }
}
