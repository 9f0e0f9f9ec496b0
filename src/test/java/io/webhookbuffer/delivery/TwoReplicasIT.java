package io.webhookbuffer.delivery;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.webhookbuffer.common.Hex;
import io.webhookbuffer.common.Hmac;
import io.webhookbuffer.controlplane.CommandSignature;
import io.webhookbuffer.local.LocalServers;
import io.webhookbuffer.local.LocalServersConfigSourceFactory;
import io.webhookbuffer.testsupport.FakeOrigin;
import io.webhookbuffer.testsupport.FakeOrigin.Answer;
import io.webhookbuffer.testsupport.Signed;

/**
 * Two replicas of the packaged service, as real processes, on one PostgreSQL and one Redis: they share a backlog
 * with no event delivered by both at once and none lost, and when one is killed mid-drain the other takes its
 * tenants over once the lease expires.
 */
class TwoReplicasIT {

    private static final String WEBHOOK_SECRET = "replicas-webhook-secret";
    private final HttpClient http = HttpClient.newHttpClient();
    private final List<Process> replicas = new ArrayList<>();

    @AfterEach
    void stopReplicas() {
        replicas.forEach(Process::destroyForcibly);
    }

    @Test
    void twoReplicasShareABacklogWithoutOverlapOrLossAndSurviveOneDying() throws Exception {
        try (FakeOrigin origin = new FakeOrigin()) {
            String tenant = "replicas-" + UUID.randomUUID().toString().substring(0, 8);
            origin.answer(tenant, batch -> new Answer(200, Map.of(), "", 20)); // slow enough for an overlap to show
            int portA = freePort();
            int portB = freePort();
            Process a = start(portA, origin.baseUrl(), "a");
            start(portB, origin.baseUrl(), "b");
            awaitReady(portA);
            awaitReady(portB);
            command(portA, tenant, "{\"secrets\":[\"" + WEBHOOK_SECRET + "\"],\"rateLimit\":100000,\"rateWindowSeconds\":1}");

            int events = 600;
            Set<String> acknowledged = new HashSet<>();
            for (int i = 0; i < events; i++) {
                if (i == events / 2) {
                    a.destroyForcibly(); // a replica dies mid-drain, likely holding the tenant's lease
                    a.waitFor();
                }
                int port = i % 2 == 0 && a.isAlive() ? portA : portB;
                String id = "rep-" + i;
                assertEquals(202, webhook(port, tenant, id), "event " + id);
                acknowledged.add(id);
            }
            // Everything acknowledged reaches the origin, also what the dead replica held when it died.
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                    .until(() -> new HashSet<>(origin.eventIds(tenant)).containsAll(acknowledged));
            assertEquals(1, origin.maxConcurrent(tenant), "two batches of one tenant were in flight at once");
        }
    }

    private static int freePort() throws IOException {
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private Process start(int port, String originUrl, String name) throws IOException {
        LocalServers.Endpoint pg = LocalServers.postgres(true, null, LocalServersConfigSourceFactory.TEST_DATABASE);
        LocalServers.Endpoint redis = LocalServers.redis(true);
        String db = pg.host() + ":" + pg.port() + "/" + pg.database();
        Map<String, String> env = new HashMap<>();
        env.put("QUARKUS_DATASOURCE_REACTIVE_URL", "postgresql://" + db);
        env.put("QUARKUS_DATASOURCE_JDBC_URL", "jdbc:postgresql://" + db);
        env.put("QUARKUS_DATASOURCE_USERNAME", pg.user());
        env.put("QUARKUS_REDIS_HOSTS", "redis://" + redis.host() + ":" + redis.port());
        env.put("QUARKUS_HTTP_PORT", Integer.toString(port));
        env.put("BUFFER_CONTROL_SECRET", Signed.CONTROL_SECRET);
        env.put("BUFFER_ORIGIN_BASE_URL", originUrl);
        env.put("BUFFER_DELIVERY_LEASE_TTL", "2s");
        env.put("BUFFER_DELIVERY_REQUEST_TIMEOUT", "1s");
        env.put("BUFFER_DELIVERY_SWEEP_INTERVAL", "500ms");
        env.put("BUFFER_DELIVERY_BACKOFF_BASE", "50ms");
        env.put("BUFFER_DELIVERY_BACKOFF_CAP", "500ms");
        env.put("BUFFER_DELIVERY_BATCH_SIZE", "10");
        String jar = System.getProperty("service.jar", "target/quarkus-app/quarkus-run.jar");
        ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-jar", jar);
        pb.environment().putAll(env);
        pb.redirectErrorStream(true);
        pb.redirectOutput(new File("target/replica-" + name + ".log"));
        Process p = pb.start();
        replicas.add(p);
        return p;
    }

    private void awaitReady(int port) {
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250)).ignoreExceptions().until(() -> http
                .send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/q/health/ready")).build(),
                        HttpResponse.BodyHandlers.discarding()).statusCode() == 200);
    }

    private void command(int port, String tenant, String body) throws Exception {
        String ts = Long.toString(System.currentTimeMillis() / 1000);
        String nonce = Signed.nonce();
        byte[] raw = body.getBytes(StandardCharsets.UTF_8);
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/control/tenants/" + tenant))
                .header("content-type", "application/json").header("x-timestamp", ts).header("x-nonce", nonce)
                .header("x-signature", CommandSignature.sign(Signed.CONTROL_SECRET, ts, nonce, raw))
                .PUT(HttpRequest.BodyPublishers.ofByteArray(raw)).build();
        assertEquals(200, http.send(request, HttpResponse.BodyHandlers.ofString()).statusCode());
    }

    private int webhook(int port, String tenant, String eventId) throws Exception {
        byte[] body = ("{\"id\":\"" + eventId + "\"}").getBytes(StandardCharsets.UTF_8);
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/webhook/" + tenant))
                .header("content-type", "application/json").header("X-Event-ID", eventId)
                .header("X-Signature", Hex.encode(Hmac.hmacSha256(WEBHOOK_SECRET, body)))
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build();
        return http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
    }
}
