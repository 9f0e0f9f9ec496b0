package io.webhookbuffer.testsupport;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.webhookbuffer.common.Hex;
import io.webhookbuffer.common.Hmac;
import io.webhookbuffer.controlplane.CommandSignature;
import io.webhookbuffer.local.LocalServers;
import io.webhookbuffer.local.LocalServersConfigSourceFactory;

/** Runs the packaged service as real processes on the test PostgreSQL and Redis (for the *IT tests). */
public final class ServiceProcesses implements AutoCloseable {

    private final HttpClient http = HttpClient.newHttpClient();
    private final List<Process> processes = new ArrayList<>();

    public static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /** The test database as JDBC sees it: url, user. */
    public static LocalServers.Endpoint postgres() {
        return LocalServers.postgres(true, null, LocalServersConfigSourceFactory.TEST_DATABASE);
    }

    /** Starts one replica on {@code port} with the test database, Redis and control secret, plus {@code extra}. */
    public Process start(int port, String name, Map<String, String> extra) throws IOException {
        LocalServers.Endpoint pg = postgres();
        LocalServers.Endpoint redis = LocalServers.redis(true);
        String db = pg.host() + ":" + pg.port() + "/" + pg.database();
        Map<String, String> env = new HashMap<>();
        env.put("QUARKUS_DATASOURCE_REACTIVE_URL", "postgresql://" + db);
        env.put("QUARKUS_DATASOURCE_JDBC_URL", "jdbc:postgresql://" + db);
        env.put("QUARKUS_DATASOURCE_USERNAME", pg.user());
        env.put("QUARKUS_REDIS_HOSTS", "redis://" + redis.host() + ":" + redis.port());
        env.put("QUARKUS_HTTP_PORT", Integer.toString(port));
        env.put("BUFFER_CONTROL_SECRET", Signed.CONTROL_SECRET);
        env.putAll(extra);
        String jar = System.getProperty("service.jar", "target/quarkus-app/quarkus-run.jar");
        ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-jar", jar);
        pb.environment().putAll(env);
        pb.redirectErrorStream(true);
        pb.redirectOutput(new File("target/replica-" + name + ".log"));
        Process p = pb.start();
        processes.add(p);
        return p;
    }

    public void awaitReady(int port) {
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250)).ignoreExceptions().until(() -> http
                .send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/q/health/ready")).build(),
                        HttpResponse.BodyHandlers.discarding()).statusCode() == 200);
    }

    /** A signed {@code PUT /control/tenants/{tenant}}; asserts 200. */
    public void command(int port, String tenant, String body) throws IOException, InterruptedException {
        String ts = Long.toString(System.currentTimeMillis() / 1000);
        String nonce = Signed.nonce();
        byte[] raw = body.getBytes(StandardCharsets.UTF_8);
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/control/tenants/" + tenant))
                .header("content-type", "application/json").header("x-timestamp", ts).header("x-nonce", nonce)
                .header("x-signature", CommandSignature.sign(Signed.CONTROL_SECRET, ts, nonce, raw))
                .PUT(HttpRequest.BodyPublishers.ofByteArray(raw)).build();
        assertEquals(200, http.send(request, HttpResponse.BodyHandlers.ofString()).statusCode());
    }

    /** A generic-scheme webhook {"id": eventId} with X-Event-ID; returns the status. */
    public int webhook(int port, String tenant, String secret, String eventId) throws IOException, InterruptedException {
        byte[] body = ("{\"id\":\"" + eventId + "\"}").getBytes(StandardCharsets.UTF_8);
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/webhook/" + tenant))
                .header("content-type", "application/json").header("X-Event-ID", eventId)
                .header("X-Signature", Hex.encode(Hmac.hmacSha256(secret, body)))
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build();
        return http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    @Override
    public void close() {
        processes.forEach(Process::destroyForcibly);
    }
}
