package io.webhookbuffer.ops;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
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
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

import org.junit.jupiter.api.Test;

import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import io.webhookbuffer.common.EventIds;
import io.webhookbuffer.local.LocalServers;
import io.webhookbuffer.local.LocalServersConfigSourceFactory;
import io.webhookbuffer.testsupport.FakeOrigin;
import io.webhookbuffer.testsupport.FakeOrigin.Answer;
import io.webhookbuffer.testsupport.ServiceProcess;
import io.webhookbuffer.testsupport.Signed;

/**
 * SIGTERM to the packaged service under steady signed load, with a burst in flight and a drain lease parked for a
 * backoff (docs/operations.md "Graceful shutdown"):
 * <ol>
 * <li>readiness turns DOWN at once, while every request keeps being served normally (202, stored) for
 * {@code quarkus.shutdown.delay}, so a load balancer can take the replica out without a sender seeing an error;</li>
 * <li>after the delay every new request is refused, 503 with Retry-After (or, once the server has closed, no
 * connection), while requests in flight (here a slow upload) finish with their true answer;</li>
 * <li>every request answered 202 is committed, and the parked lease is released at shutdown instead of blocking the
 * tenant on other replicas until the backoff would end.</li>
 * </ol>
 * In the shape of k8s/: readiness and commands on the management port, webhooks on the webhook port.
 */
class GracefulShutdownIT {

    private static final String SECRET = "shutdown-webhook-secret";
    private static final Duration DELAY = Duration.ofSeconds(4);
    /** Clock slack between this test's SIGTERM and the service's own start of the delay, either side. */
    private static final long SLACK_NANOS = Duration.ofMillis(800).toNanos();
    private static final int SENDERS = 4;

    /** One answer: what was sent, when (ns after SIGTERM, negative before it), its status (-1: no connection). */
    private record Sent(String eventId, long afterSigtermNanos, int status, String retryAfter) {
    }

    /** The steady load's answers, split at the end of the delay (with {@link #SLACK_NANOS} either side). */
    private record Phases(int servedInDelay, List<Sent> notServedInDelay, int refused, int notConnected,
            List<Sent> notRefusedAfter) {

        static Phases of(Iterable<Sent> answers) {
            long end = DELAY.toNanos();
            int served = 0;
            int refused = 0;
            int notConnected = 0;
            List<Sent> notServed = new ArrayList<>();
            List<Sent> notRefused = new ArrayList<>();
            for (Sent sent : answers) {
                if (sent.afterSigtermNanos() < end - SLACK_NANOS) {
                    if (sent.status() != 202) {
                        notServed.add(sent);
                    } else if (sent.afterSigtermNanos() >= 0) {
                        served++;
                    }
                } else if (sent.afterSigtermNanos() > end + SLACK_NANOS) {
                    if (sent.status() == 503 && sent.retryAfter() != null) {
                        refused++;
                    } else if (sent.status() == -1) {
                        notConnected++;
                    } else {
                        notRefused.add(sent);
                    }
                }
            }
            return new Phases(served, notServed, refused, notConnected, notRefused);
        }
    }

    @Test
    void sigtermTurnsReadinessDownServesThroughTheDelayThenRefusesAndLosesNoAcceptedEvent() throws Exception {
        String tenant = "shutdown-" + UUID.randomUUID().toString().substring(0, 8);
        try (FakeOrigin origin = new FakeOrigin(); ServiceProcess service = ServiceProcess.start("shutdown",
                ServiceProcess.shortWarmup(Map.of(
                "BUFFER_ORIGIN_BASE_URL", origin.baseUrl(),
                "BUFFER_DELIVERY_BACKOFF_BASE", "20s",
                "BUFFER_DELIVERY_BACKOFF_CAP", "20s",
                "BUFFER_DELIVERY_LINGER", "0ms",
                "BUFFER_DELIVERY_SWEEP_INTERVAL", "1s",
                "BUFFER_HEALTH_REDIS_INTERVAL", "1s",
                "QUARKUS_SHUTDOWN_DELAY", DELAY.toSeconds() + "s",
                "BUFFER_MANAGEMENT_PORT", Integer.toString(ServiceProcess.freePort()))))) {
            origin.answer(tenant, batch -> Answer.status(503));
            service.awaitReady();
            assertEquals(200, service.command(tenant, "{\"secrets\":[\"" + SECRET + "\"],\"rateLimit\":100000}"));
            assertEquals(202, service.webhook(tenant, SECRET, "first"));
            // The origin fails the first batch: the drainer parks the tenant's lease for the 20 s backoff.
            await().atMost(Duration.ofSeconds(30)).until(() -> !origin.batches(tenant).isEmpty()
                    && leaseSecondsLeft(tenant) > 10);

            HttpClient http = HttpClient.newHttpClient();
            AtomicLong sigterm = new AtomicLong(Long.MAX_VALUE);
            ConcurrentLinkedQueue<Sent> steady = new ConcurrentLinkedQueue<>();
            ConcurrentLinkedQueue<Sent> probes = new ConcurrentLinkedQueue<>();
            ExecutorService load = Executors.newFixedThreadPool(SENDERS + 1); // the senders and a readiness prober
            AtomicInteger sequence = new AtomicInteger();
            for (int s = 0; s < SENDERS; s++) {
                load.submit(() -> sendUntilGone(http, service, () -> tenant + "/steady-" + sequence.incrementAndGet(),
                        sigterm, steady));
            }
            await().atMost(Duration.ofSeconds(10)).until(() -> steady.size() >= 20); // the load is flowing
            List<CompletableFuture<HttpResponse<Void>>> burst = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                burst.add(send(http, service.port(), tenant + "/burst-" + i));
            }
            assertEquals(401, forged(http, service.port(), tenant), "a forged webhook is refused");
            try (SlowUpload slow = new SlowUpload(service.port(), tenant, "slow")) {
                sigterm.set(System.nanoTime());
                service.process().destroy(); // SIGTERM while the burst is in flight and the load goes on
                load.submit(() -> sendUntilGone(http, service, () -> null, sigterm, probes));
                // The slow upload is in flight, so the service waits for it: new requests meet the refusal meanwhile.
                await().atMost(DELAY.plusSeconds(10)).until(() -> steady.stream().anyMatch(a -> a.status() == 503
                        && a.afterSigtermNanos() > DELAY.toNanos() + SLACK_NANOS));
                assertEquals(202, slow.finish(), "a request in flight when the refusals began gets its true answer");
            }
            assertTrue(service.process().waitFor(60, TimeUnit.SECONDS), "the service stopped");
            long exited = System.nanoTime() - sigterm.get();
            load.shutdown();
            assertTrue(load.awaitTermination(30, TimeUnit.SECONDS), "the senders stopped");

            Set<String> accepted = new HashSet<>(Set.of("first", "slow"));
            int burstAccepted = 0;
            for (int i = 0; i < burst.size(); i++) {
                if (status(burst.get(i)) == 202 && accepted.add("burst-" + i)) {
                    burstAccepted++;
                }
            }
            steady.stream().filter(sent -> sent.status() == 202).forEach(sent -> accepted.add(sent.eventId()));
            long readyDown = probes.stream().filter(p -> p.status() == 503).mapToLong(Sent::afterSigtermNanos).min()
                    .orElse(Long.MAX_VALUE);
            Phases phases = Phases.of(steady);
            System.out.printf("GracefulShutdownIT: readiness DOWN %d ms after SIGTERM; the burst in flight at SIGTERM:"
                    + " %d/200 got 202; the steady load: %d sent during the %d s delay got 202, %d did not; after it"
                    + " %d got 503 + Retry-After, %d no connection, %d something else %s; exit %d ms after SIGTERM%n",
                    readyDown == Long.MAX_VALUE ? -1 : readyDown / 1_000_000, burstAccepted, phases.servedInDelay(),
                    DELAY.toSeconds(), phases.notServedInDelay().size(), phases.refused(), phases.notConnected(),
                    phases.notRefusedAfter().size(), phases.notRefusedAfter().stream().map(Sent::status).distinct()
                            .toList(), exited / 1_000_000);

            assertTrue(readyDown < DELAY.toNanos() - SLACK_NANOS, "readiness was DOWN while requests were served");
            assertEquals(200, burstAccepted, "the burst in flight at SIGTERM was served normally");
            assertEquals(List.of(), phases.notServedInDelay(), "every request sent during the delay got 202");
            assertEquals(List.of(), phases.notRefusedAfter(), "every request sent after the delay was refused");
            assertTrue(phases.servedInDelay() > 0 && phases.refused() > 0, "the load covered both phases");
            assertTrue(exited > DELAY.toNanos(), "the process served through the whole delay");
            assertTrue(queuedIds(tenant).containsAll(accepted), "every 202 is committed");
            assertFalse(leaseSecondsLeft(tenant) > 0, "the parked lease was released at shutdown");
            String log = Files.readString(Path.of("target/shutdown.log"), StandardCharsets.UTF_8);
            assertTrue(log.contains("shutdown: released 1 parked drain lease(s)"), "the release is logged");
            // Nothing fails on the way down: a scheduled job fired after shutdown began met closed clients (the Redis
            // probe, pinging every second here, logged "Error Occurred After Shutdown"); ArchitectureTests holds the rule.
            assertEquals(List.of(), log.lines().filter(line -> line.contains(" ERROR ")).toList(),
                    "ERROR lines in the service's log");
            List<String> kept = refusalsKept(tenant);
            assertTrue(kept.stream().anyMatch(r -> r.contains("\"status\":401")),
                    "the last refusal reached Redis (by the flush every second, or the one at shutdown): " + kept);
        }
    }

    /** A webhook whose signature is not the tenant's; returns the status. */
    private static int forged(HttpClient http, int port, String tenant) throws IOException, InterruptedException {
        byte[] body = "{\"id\":\"forged\"}".getBytes(StandardCharsets.UTF_8);
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/webhook/" + tenant))
                .header("content-type", "application/json").header("X-Event-ID", "forged")
                .header("X-Signature", Signed.signature("not-" + SECRET, body)).timeout(Duration.ofSeconds(10))
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.discarding())
                .statusCode();
    }

    /** The tenant's refusals as RefusalLog keeps them in Redis (every replica's), newest first. */
    private static List<String> refusalsKept(String tenant) throws Exception {
        LocalServers.Endpoint endpoint = LocalServers.redis(true);
        Vertx vertx = Vertx.vertx();
        try {
            Response list = Redis.createClient(vertx, "redis://" + endpoint.host() + ":" + endpoint.port())
                    .send(Request.cmd(Command.LRANGE).arg("wb:refusals:" + tenant).arg(0).arg(-1))
                    .toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
            List<String> out = new ArrayList<>();
            list.forEach(r -> out.add(r.toString()));
            return out;
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
    }

    /**
     * Sends one request at a time until the process is gone, and keeps every answer: a webhook for each
     * "tenant/eventId" the supplier gives, a readiness probe (every 50 ms: a sampler, not a wait) when it gives null.
     */
    private static void sendUntilGone(HttpClient http, ServiceProcess service, Supplier<String> next,
            AtomicLong sigterm, ConcurrentLinkedQueue<Sent> answers) {
        while (service.isAlive()) {
            String target = next.get();
            long sentAt = System.nanoTime();
            HttpRequest probe = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + service.managementPort()
                    + "/q/health/ready")).timeout(Duration.ofSeconds(2)).build();
            CompletableFuture<HttpResponse<Void>> answer = target == null
                    ? http.sendAsync(probe, HttpResponse.BodyHandlers.discarding())
                    : send(http, service.port(), target);
            int status = status(answer);
            String retryAfter = status == -1 ? null : answer.join().headers().firstValue("Retry-After").orElse(null);
            answers.add(new Sent(target == null ? "ready" : target.substring(target.indexOf('/') + 1),
                    sentAt - sigterm.get(), status, retryAfter));
            if (target == null) {
                LockSupport.parkNanos(50_000_000L);
            }
        }
    }

    /**
     * A signed webhook whose body arrives in two parts: the headers and half the body now (the request is in flight
     * from then on), the rest on {@link #finish()}, which returns the status.
     */
    private static final class SlowUpload implements AutoCloseable {

        private final Socket socket;
        private final byte[] body;

        SlowUpload(int port, String tenant, String eventId) throws IOException {
            body = ("{\"id\":\"" + eventId + "\",\"pad\":\"" + "x".repeat(64) + "\"}").getBytes(StandardCharsets.UTF_8);
            socket = new Socket("127.0.0.1", port);
            socket.setSoTimeout(30_000);
            String head = "POST /webhook/" + tenant + " HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    + "Content-Type: application/json\r\nX-Event-ID: " + eventId
                    + "\r\nX-Signature: " + Signed.signature(SECRET, body)
                    + "\r\nContent-Length: " + body.length + "\r\n\r\n";
            OutputStream out = socket.getOutputStream();
            out.write(head.getBytes(StandardCharsets.US_ASCII));
            out.write(body, 0, body.length / 2);
            out.flush();
        }

        int finish() throws IOException {
            OutputStream out = socket.getOutputStream();
            out.write(body, body.length / 2, body.length - body.length / 2);
            out.flush();
            String statusLine = new BufferedReader(new InputStreamReader(socket.getInputStream(),
                    StandardCharsets.US_ASCII)).readLine();
            return Integer.parseInt(statusLine.split(" ")[1]);
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }

    /** The answer's status; -1 when there was none (refused or reset: the sender retries, nothing was promised). */
    private static int status(CompletableFuture<HttpResponse<Void>> answer) {
        try {
            return answer.get(15, TimeUnit.SECONDS).statusCode();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        } catch (ExecutionException | TimeoutException e) {
            return -1;
        }
    }

    /** A signed webhook to "tenant/eventId". */
    private static CompletableFuture<HttpResponse<Void>> send(HttpClient http, int port, String target) {
        String tenant = target.substring(0, target.indexOf('/'));
        String eventId = target.substring(target.indexOf('/') + 1);
        byte[] body = ("{\"id\":\"" + eventId + "\"}").getBytes(StandardCharsets.UTF_8);
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/webhook/" + tenant))
                .header("content-type", "application/json").header("X-Event-ID", eventId)
                .header("X-Signature", Signed.signature(SECRET, body)).timeout(Duration.ofSeconds(10))
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build();
        return http.sendAsync(request, HttpResponse.BodyHandlers.discarding());
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

    /** The X-Event-ID of every event queued for the tenant. */
    private static Set<String> queuedIds(String tenant) throws SQLException {
        Set<String> ids = new HashSet<>();
        try (Connection c = connect();
                PreparedStatement s = c.prepareStatement("SELECT event_id FROM event_queue WHERE tenant_id = ?")) {
            s.setString(1, tenant);
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    ids.add(EventIds.providerId(r.getString(1))); // the X-Event-ID sent, without the body binding
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
