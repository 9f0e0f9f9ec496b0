package io.webhookbuffer.ops;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.webhookbuffer.common.Hex;
import io.webhookbuffer.common.Hmac;
import io.webhookbuffer.local.LocalServers;
import io.webhookbuffer.local.LocalServersConfigSourceFactory;
import io.webhookbuffer.testsupport.FakeOrigin;
import io.webhookbuffer.testsupport.FakeOrigin.Answer;
import io.webhookbuffer.testsupport.ServiceProcess;

/**
 * SIGTERM to the packaged service while senders are mid-request and a drain lease is parked for a backoff: every
 * request answered 202 is committed, the others are refused (503 or no connection), never half-done, and the parked
 * lease is released at shutdown instead of blocking the tenant on other replicas until the backoff would end.
 */
class GracefulShutdownIT {

    private static final String SECRET = "shutdown-webhook-secret";

    @Test
    void sigtermFinishesInFlightCommitsAndReleasesParkedLeases() throws Exception {
        String tenant = "shutdown-" + UUID.randomUUID().toString().substring(0, 8);
        try (FakeOrigin origin = new FakeOrigin(); ServiceProcess service = ServiceProcess.start("shutdown", Map.of(
                "BUFFER_ORIGIN_BASE_URL", origin.baseUrl(),
                "BUFFER_DELIVERY_BACKOFF_BASE", "20s",
                "BUFFER_DELIVERY_BACKOFF_CAP", "20s",
                "BUFFER_DELIVERY_LINGER", "0ms",
                "BUFFER_DELIVERY_SWEEP_INTERVAL", "1s"))) {
            origin.answer(tenant, batch -> Answer.status(503));
            service.awaitReady();
            assertEquals(200, service.command(tenant, "{\"secrets\":[\"" + SECRET + "\"],\"rateLimit\":100000}"));
            assertEquals(202, service.webhook(tenant, SECRET, "first"));
            // The origin fails the first batch: the drainer parks the tenant's lease for the 20 s backoff.
            await().atMost(Duration.ofSeconds(30)).until(() -> !origin.batches(tenant).isEmpty()
                    && leaseSecondsLeft(tenant) > 10);

            HttpClient http = HttpClient.newHttpClient();
            List<CompletableFuture<Integer>> answers = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                answers.add(send(http, service.port(), tenant, "burst-" + i));
            }
            service.process().destroy(); // SIGTERM while the burst is in flight
            assertTrue(service.process().waitFor(60, TimeUnit.SECONDS), "the service stopped");

            Set<String> accepted = new HashSet<>(Set.of("first"));
            for (int i = 0; i < answers.size(); i++) {
                int status = answers.get(i).get(30, TimeUnit.SECONDS);
                assertTrue(status == 202 || status == 503 || status == -1, "burst-" + i + " answered " + status);
                if (status == 202) {
                    accepted.add("burst-" + i);
                }
            }
            assertTrue(queuedIds(tenant).containsAll(accepted), "every 202 is committed");
            assertFalse(leaseSecondsLeft(tenant) > 0, "the parked lease was released at shutdown");
            String log = Files.readString(Path.of("target/shutdown.log"), StandardCharsets.UTF_8);
            assertTrue(log.contains("shutdown: released 1 parked drain lease(s)"), "the release is logged");
        }
    }

    private static CompletableFuture<Integer> send(HttpClient http, int port, String tenant, String eventId) {
        byte[] body = ("{\"id\":\"" + eventId + "\"}").getBytes(StandardCharsets.UTF_8);
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/webhook/" + tenant))
                .header("content-type", "application/json").header("X-Event-ID", eventId)
                .header("X-Signature", Hex.encode(Hmac.hmacSha256(SECRET, body)))
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build();
        return http.sendAsync(request, HttpResponse.BodyHandlers.discarding()).thenApply(HttpResponse::statusCode)
                .exceptionally(failure -> -1); // refused or reset: the sender retries, nothing was promised
    }

    /** Seconds until the tenant's drain lease expires; 0 or less when there is none. */
    private static double leaseSecondsLeft(String tenant) throws SQLException {
        try (Connection c = connect(); PreparedStatement s = c.prepareStatement(
                "SELECT extract(epoch FROM expires_at - now()) FROM drain_leases WHERE tenant_id = ?")) {
            s.setString(1, tenant);
            try (ResultSet r = s.executeQuery()) {
                return r.next() ? r.getDouble(1) : 0;
            }
        }
    }

    private static Set<String> queuedIds(String tenant) throws SQLException {
        Set<String> ids = new HashSet<>();
        try (Connection c = connect();
                PreparedStatement s = c.prepareStatement("SELECT event_id FROM event_queue WHERE tenant_id = ?")) {
            s.setString(1, tenant);
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    ids.add(r.getString(1));
                }
            }
        }
        return ids;
    }

    private static Connection connect() throws SQLException {
        LocalServers.Endpoint pg = LocalServers.postgres(true, null, LocalServersConfigSourceFactory.TEST_DATABASE);
        return DriverManager.getConnection("jdbc:postgresql://" + pg.host() + ":" + pg.port() + "/" + pg.database(),
                pg.user(), "");
    }
}
