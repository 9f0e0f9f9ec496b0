package io.webhookbuffer.testsupport;

import static org.awaitility.Awaitility.await;

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

import io.webhookbuffer.controlplane.CommandSignature;
import io.webhookbuffer.controlplane.CommandSignature.Direction;
import io.webhookbuffer.local.LocalSecretsKey;
import io.webhookbuffer.local.LocalServers;
import io.webhookbuffer.local.LocalServersConfigSourceFactory;

/**
 * The packaged service ({@code target/quarkus-app/quarkus-run.jar}) as a real process on the test PostgreSQL and
 * Redis, for *IT tests: start it with extra environment, wait until ready, send signed commands and webhooks. With
 * {@code BUFFER_MANAGEMENT_PORT} in the environment (the k8s/ shape), readiness and commands go to that port.
 */
public final class ServiceProcess implements AutoCloseable {

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    /**
     * The replicas' JVM options: a small heap, and the C1 compiler alone ({@code -XX:TieredStopAtLevel=1}). A replica of
     * these tests lives a minute or two at a few hundred requests a second, so C2's compiling is cost without return:
     * on the shared 2-core machine (load average 14-20, 2026-12-07) a start to readiness (1 s warm-up) took 8-10 s and
     * 4-5.5 s of CPU with C1 alone against 15-23 s and 7-10 s of CPU with both compilers. No test of a replica's speed
     * uses them: the abuse suite runs the image's options, the benchmark its own.
     */
    public static final List<String> TEST_JVM = List.of("-Xmx256m", "-XX:TieredStopAtLevel=1");
    private final Process process;
    private final int port;
    private final int managementPort;

    private ServiceProcess(Process process, int port, int managementPort) {
        this.process = process;
        this.port = port;
        this.managementPort = managementPort;
    }

    /** The test database, as the replicas (and a test's own JDBC check) reach it. */
    public static LocalServers.Endpoint postgres() {
        return LocalServers.postgres(true, null, LocalServersConfigSourceFactory.TEST_DATABASE);
    }

    /**
     * {@code env} with a short warm-up (2 s of rehearsal, 1 s of settling instead of up to 30 s), for tests of what
     * replicas do together rather than of their first seconds: the warm-up still runs and readiness still waits for it.
     */
    public static Map<String, String> shortWarmup(Map<String, String> env) {
        Map<String, String> merged = new HashMap<>(Map.of("BUFFER_WARMUP_MAX_DURATION", "2s"));
        merged.putAll(env);
        return merged;
    }

    /** Starts a replica on a free port; its output goes to target/{name}.log. */
    public static ServiceProcess start(String name, Map<String, String> extraEnv) throws IOException {
        return start(name, freePort(), extraEnv);
    }

    /** Starts a replica on {@code port} (a restart where the last one listened); output to target/{name}.log. */
    public static ServiceProcess start(String name, int port, Map<String, String> extraEnv) throws IOException {
        return start(name, port, extraEnv, TEST_JVM);
    }

    /** Starts a replica with these JVM options instead of {@link #TEST_JVM} (the abuse suite: the image's). */
    public static ServiceProcess start(String name, int port, Map<String, String> extraEnv, List<String> jvmOptions)
            throws IOException {
        LocalServers.Endpoint pg = postgres();
        LocalServers.Endpoint redis = LocalServers.redis(true);
        String db = pg.host() + ":" + pg.port() + "/" + pg.database();
        Map<String, String> env = new HashMap<>();
        env.put("QUARKUS_DATASOURCE_REACTIVE_URL", "postgresql://" + db);
        env.put("QUARKUS_DATASOURCE_JDBC_URL", "jdbc:postgresql://" + db);
        env.put("QUARKUS_DATASOURCE_USERNAME", pg.user());
        env.put("QUARKUS_REDIS_HOSTS", "redis://" + redis.host() + ":" + redis.port());
        env.put("BUFFER_INGRESS_PORT", Integer.toString(port));
        env.put("BUFFER_CONTROL_SECRET", Signed.CONTROL_SECRET);
        env.put("BUFFER_SECRETS_KEYS", secretsKeys());
        // The tests' origins listen on this machine's loopback address, which production refuses unless allowed.
        env.put("BUFFER_ORIGIN_ALLOWED_PRIVATE_NETWORKS", "127.0.0.1/32");
        env.putAll(extraEnv);
        String jar = System.getProperty("service.jar", "target/quarkus-app/quarkus-run.jar");
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.addAll(List.of("-jar", jar));
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().putAll(env);
        pb.redirectErrorStream(true);
        pb.redirectOutput(new File("target/" + name + ".log"));
        String management = env.get("BUFFER_MANAGEMENT_PORT");
        return new ServiceProcess(pb.start(), port, management == null ? port : Integer.parseInt(management));
    }

    /** The tests' key for secrets at rest (local mode's key file), so a replica reads what the tests sealed. */
    public static String secretsKeys() {
        return LocalSecretsKey.loadOrCreate(Path.of(LocalServersConfigSourceFactory.DATA_DIR, LocalSecretsKey.FILE_NAME));
    }

    public Process process() {
        return process;
    }

    public int port() {
        return port;
    }

    /** Where /q/*, /control and /status are answered: the management port when one is set, else {@link #port()}. */
    public int managementPort() {
        return managementPort;
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /**
     * Waits until readiness answers 200: normally a few seconds (start, migrations, the warm-up); the bound is wide
     * because on a shared 2-core machine under load a start was seen to take 40-55 s before the warm-up began.
     */
    public ServiceProcess awaitReady() {
        // A replica that exited (a JVM option it refused, a port taken) fails the wait at once, not after 3 minutes.
        await().atMost(Duration.ofSeconds(180)).pollInterval(Duration.ofMillis(250)).ignoreExceptions()
                .failFast("the service exited before it was ready: see its log under target/", () -> !process.isAlive())
                .until(() -> HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + managementPort
                        + "/q/health/ready")).build(), HttpResponse.BodyHandlers.discarding()).statusCode() == 200);
        return this;
    }

    /** A signed PUT /control/tenants/{tenant}; returns the status. */
    public int command(String tenant, String body) throws IOException, InterruptedException {
        String ts = Long.toString(System.currentTimeMillis() / 1000);
        String nonce = Signed.nonce();
        byte[] raw = body.getBytes(StandardCharsets.UTF_8);
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + managementPort + "/control/tenants/"
                + tenant))
                .header("content-type", "application/json").header("x-timestamp", ts).header("x-nonce", nonce)
                .header("x-signature", CommandSignature.signV2(Signed.CONTROL_SECRET, Direction.COMMAND, "PUT",
                        "/control/tenants/" + tenant, ts, nonce, raw))
                .PUT(HttpRequest.BodyPublishers.ofByteArray(raw)).build();
        return HTTP.send(request, HttpResponse.BodyHandlers.ofString()).statusCode();
    }

    /** A webhook with the generic signature under {@code secret} and {@code X-Event-ID: eventId}; returns the status. */
    public int webhook(String tenant, String secret, String eventId) throws IOException, InterruptedException {
        byte[] body = ("{\"id\":\"" + eventId + "\"}").getBytes(StandardCharsets.UTF_8);
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/webhook/" + tenant))
                .header("content-type", "application/json").header("X-Event-ID", eventId)
                .header("X-Signature", Signed.signature(secret, body))
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build();
        return HTTP.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    @Override
    public void close() {
        process.destroyForcibly();
    }

    public static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
