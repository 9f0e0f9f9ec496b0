package io.webhookbuffer.torture;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Array;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import io.webhookbuffer.local.LocalServers;
import io.webhookbuffer.testsupport.ServiceProcess;
import io.webhookbuffer.testsupport.Signed;
import io.webhookbuffer.testsupport.TcpProxy;
import io.webhookbuffer.testsupport.TestTenants;

/**
 * One torture run: the packaged service ({@link ServiceProcess}) behind TCP proxies to PostgreSQL and Redis, a
 * {@link TortureOrigin}, and {@link SignedLoad} running from the warm-up to the end while the faults come one after
 * another, each followed by a settle time under load. {@link #finish()} stops the load, waits for the drain and
 * gathers what the checks need from the answers, the origin, the database and the service's logs.
 */
final class TortureRun implements AutoCloseable {

    /** A fault's window: injected at {@code start}, healed at {@code end}; its phase lasts until {@code phaseEnd}. */
    record Fault(String name, long start, long end, long phaseEnd, boolean processDown, boolean recovers) {
    }

    /** A row of dead_letters, as the checks read it. */
    record DeadLetter(String tenant, String eventId, Integer status, int attempts, String error, long deadAt) {
        @Override
        public String toString() {
            return tenant + "/" + eventId + " (" + status + ", " + attempts + " attempts: " + error + ")";
        }
    }

    @FunctionalInterface
    private interface Action {
        void run() throws Exception;
    }

    private static final Path LOG_DIR = Path.of("target", "torture");
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();

    private final TortureSettings settings;
    private final LocalServers.Endpoint database;
    private final String runId = UUID.randomUUID().toString().substring(0, 8);
    /** Every secret the service holds, by what it is: none of them may reach a log. */
    private final Map<String, String> secrets = new LinkedHashMap<>();
    private final Map<String, String> tenants = new LinkedHashMap<>();
    private final String poison500 = "poison-500";
    private final String poison4xx = "poison-422";
    private final TortureOrigin origin;
    private final TcpProxy postgresProxy;
    private final TcpProxy redisProxy;
    private final Map<String, String> env = new HashMap<>();
    private final List<Path> logs = new ArrayList<>();
    private final List<Fault> faults = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();
    private ServiceProcess service;
    private SignedLoad load;
    private long loadStart;

    TortureRun(TortureSettings settings) throws IOException {
        this.settings = settings;
        this.database = settings.pgPort
                .map(port -> new LocalServers.Endpoint("127.0.0.1", port, settings.pgDatabase, "postgres", false))
                .orElseGet(TortureRun::databaseOfItsOwn);
        secrets.put("control secret", Signed.CONTROL_SECRET);
        secrets.put("origin token", "torture-origin-token-" + UUID.randomUUID());
        secrets.put("batch signing secret", "torture-batch-secret-" + UUID.randomUUID());
        String keys = ServiceProcess.secretsKeys();
        secrets.put("secrets-at-rest key", keys.substring(keys.indexOf(':') + 1));
        origin = new TortureOrigin(secrets.get("origin token"),
                settings.requestTimeout.plusSeconds(1).toMillis(), SignedLoad.key(poison500), SignedLoad.key(poison4xx));
        postgresProxy = new TcpProxy(database.host(), database.port());
        LocalServers.Endpoint redis = LocalServers.redis(true);
        redisProxy = new TcpProxy(redis.host(), redis.port());
        String db = database.host() + ":" + database.port() + "/" + database.database();
        env.put("QUARKUS_DATASOURCE_REACTIVE_URL",
                "postgresql://127.0.0.1:" + postgresProxy.port() + "/" + database.database());
        env.put("QUARKUS_DATASOURCE_JDBC_URL", "jdbc:postgresql://" + db); // Flyway at start-up, not the proxy
        env.put("QUARKUS_DATASOURCE_USERNAME", database.user());
        env.put("QUARKUS_REDIS_HOSTS", "redis://127.0.0.1:" + redisProxy.port());
        env.put("BUFFER_ORIGIN_BASE_URL", origin.baseUrl());
        env.put("BUFFER_ORIGIN_TOKEN", secrets.get("origin token"));
        env.put("BUFFER_DELIVERY_SIGNING_SECRET", secrets.get("batch signing secret"));
        // Per-request lines too: the secret scan reads everything the service can write.
        env.put("QUARKUS_LOG_CATEGORY__IO_WEBHOOKBUFFER__LEVEL", "DEBUG");
        env.putAll(settings.serviceEnv());
        Files.createDirectories(LOG_DIR);
        try (var old = Files.list(LOG_DIR)) { // the last run's logs and table: what is there is this run's
            for (Path file : old.toList()) {
                Files.deleteIfExists(file);
            }
        }
    }

    /** Starts the service, provisions the tenants and starts the load. */
    void warmUp() throws Exception {
        startService(0);
        for (int i = 0; i < settings.tenants; i++) {
            TestTenants tenant = TestTenants.tenant();
            String secret = "torture-tenant-secret-" + i + "-" + UUID.randomUUID();
            secrets.put("tenant " + tenant.id() + " signing secret", secret);
            int status = service.command(tenant.id(), tenant.secrets(secret).rateLimit(1_000_000, 1).json());
            if (status != 200) {
                throw new IllegalStateException("provisioning " + tenant.id() + " answered " + status);
            }
            tenants.put(tenant.id(), secret);
        }
        load = new SignedLoad("http://127.0.0.1:" + service.port(), tenants, settings.rate, settings.duplicates);
        loadStart = System.currentTimeMillis();
        load.start();
        sleep(settings.warmup);
    }

    void killAndRestart() throws Exception {
        fault("kill -9, restart", true, () -> {
            service.process().destroyForcibly();
            service.process().waitFor(10, TimeUnit.SECONDS);
        }, Duration.ZERO, () -> startService(service.port()));
    }

    void postgresUnreachable() throws Exception {
        fault("PostgreSQL unreachable " + TortureSettings.seconds(settings.pgOutage) + " (proxy)", false,
                postgresProxy::cut, settings.pgOutage, postgresProxy::restore);
    }

    /** Full run: the real restart of the service's own cluster; CI: a short proxy cut stands in for it. */
    void postgresRestart() throws Exception {
        if (settings.pgRestartCommand.isPresent()) {
            fault("PostgreSQL restart (real)", false, () -> run(settings.pgRestartCommand.get()), Duration.ZERO,
                    () -> {
                    });
        } else {
            fault("PostgreSQL restart (stand-in: proxy cut " + TortureSettings.seconds(settings.pgRestartStandIn)
                    + ")", false, postgresProxy::cut, settings.pgRestartStandIn, postgresProxy::restore);
        }
    }

    void redisUnreachable() throws Exception {
        fault("Redis unreachable " + TortureSettings.seconds(settings.redisOutage) + " (proxy)", false,
                redisProxy::cut, settings.redisOutage, redisProxy::restore);
    }

    void originDown() throws Exception {
        fault("origin refusing " + TortureSettings.seconds(settings.originRefusing) + ", then 503 "
                + TortureSettings.seconds(settings.originUnavailable), false, origin::refuseConnections,
                settings.originRefusing, () -> {
                    origin.mode(TortureOrigin.Mode.UNAVAILABLE);
                    sleep(settings.originUnavailable);
                    origin.mode(TortureOrigin.Mode.UP);
                });
    }

    void slowOrigin() throws Exception {
        fault("slow origin " + TortureSettings.seconds(settings.slowOrigin) + " (answers after "
                + TortureSettings.millis(settings.requestTimeout.plusSeconds(1)) + ")", false,
                () -> origin.mode(TortureOrigin.Mode.SLOW), settings.slowOrigin,
                () -> origin.mode(TortureOrigin.Mode.UP));
    }

    /** The two poison events, sent once each amid the load; the phase lasts until both are dead-lettered. */
    void poisons() throws Exception {
        List<String> ids = new ArrayList<>(tenants.keySet());
        String first = ids.get(0);
        String second = ids.get(1 % ids.size());
        long start = System.currentTimeMillis();
        int a = load.sendUntilStored(first, poison500, 10);
        int b = load.sendUntilStored(second, poison4xx, 10);
        if (a != 202 || b != 202) {
            notes.add("a poison event was not stored: " + a + ", " + b);
        }
        long deadline = start + settings.poisonWait.toMillis();
        Set<String> poisons = poisonKeys();
        while (System.currentTimeMillis() < deadline && !deadLetterKeys().containsAll(poisons)) {
            Thread.sleep(250);
        }
        long end = System.currentTimeMillis();
        sleep(settings.settle);
        faults.add(new Fault("poison events (422 and 500 for that event only)", start, end,
                System.currentTimeMillis(), false, false));
    }

    void sigtermAndRestart() throws Exception {
        fault("SIGTERM under load, restart", true, () -> {
            service.process().destroy();
            if (!service.process().waitFor(60, TimeUnit.SECONDS)) {
                notes.add("SIGTERM: the service had not exited after 60 s; killed");
                service.process().destroyForcibly();
            }
        }, Duration.ZERO, () -> startService(service.port()));
    }

    /** Stops the load, waits for the drain, stops the service and gathers the evidence. */
    TortureReport finish() throws Exception {
        load.stop();
        long loadEnd = System.currentTimeMillis();
        List<SignedLoad.Answer> answers = load.answers();
        Set<String> stored = new HashSet<>();
        answers.stream().filter(a -> a.status() == 202).forEach(a -> stored.add(TortureOrigin.key(a.tenant(),
                a.eventId())));
        long deadline = loadEnd + settings.drainWait.toMillis();
        while (System.currentTimeMillis() < deadline && !(queued() == 0 && reached(stored))) {
            Thread.sleep(500);
        }
        long drained = System.currentTimeMillis() - loadEnd;
        long left = queued();
        List<DeadLetter> deadLetters = deadLetters();
        stopService();
        Map<Path, String> logText = new LinkedHashMap<>();
        for (Path log : logs) {
            logText.put(log, Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "");
        }
        return new TortureReport(settings, List.copyOf(faults), loadStart, loadEnd, answers, load.skipped(), origin,
                deadLetters, poisonKeys(), left, drained, logText, Map.copyOf(secrets), List.copyOf(notes));
    }

    private boolean reached(Set<String> stored) throws SQLException {
        Set<String> known = new HashSet<>(origin.accepted());
        known.addAll(deadLetterKeys());
        return known.containsAll(stored);
    }

    private Set<String> poisonKeys() {
        List<String> ids = new ArrayList<>(tenants.keySet());
        return Set.of(TortureOrigin.key(ids.get(0), SignedLoad.key(poison500)),
                TortureOrigin.key(ids.get(1 % ids.size()), SignedLoad.key(poison4xx)));
    }

    private void fault(String name, boolean processDown, Action inject, Duration hold, Action heal)
            throws Exception {
        long start = System.currentTimeMillis();
        inject.run();
        sleep(hold);
        heal.run();
        long end = System.currentTimeMillis();
        sleep(settings.settle);
        faults.add(new Fault(name, start, end, System.currentTimeMillis(), processDown, true));
    }

    /** Starts an incarnation of the service (on {@code port}, or a free one for the first) and waits until ready. */
    private void startService(int port) throws IOException, InterruptedException {
        String name = "torture/service-" + runId + "-" + (logs.size() + 1);
        service = ServiceProcess.start(name, port == 0 ? ServiceProcess.freePort() : port, env, settings.serviceJvm);
        logs.add(Path.of("target", name + ".log"));
        URI ready = URI.create("http://127.0.0.1:" + service.port() + "/q/health/ready");
        long deadline = System.currentTimeMillis() + 180_000; // as ServiceProcess.awaitReady: a loaded machine's start
        while (!isReady(ready)) {
            if (!service.isAlive() || System.currentTimeMillis() > deadline) {
                throw new IllegalStateException("the service did not become ready; see " + logs.get(logs.size() - 1));
            }
            Thread.sleep(50);
        }
    }

    private static boolean isReady(URI ready) throws InterruptedException {
        try {
            return HTTP.send(HttpRequest.newBuilder(ready).timeout(Duration.ofSeconds(2)).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
        } catch (IOException e) {
            return false;
        }
    }

    private void stopService() throws InterruptedException {
        if (service != null && service.isAlive()) {
            service.process().destroy();
            if (!service.process().waitFor(60, TimeUnit.SECONDS)) {
                service.close();
            }
        }
    }

    private void run(String command) throws IOException, InterruptedException {
        Path out = LOG_DIR.resolve("pg-restart-" + runId + ".log");
        Process p = new ProcessBuilder("bash", "-c", command).redirectErrorStream(true)
                .redirectOutput(out.toFile()).start();
        if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IllegalStateException("the PostgreSQL restart command failed; see " + out);
        }
    }

    private long queued() throws SQLException {
        try (Connection c = connect();
                PreparedStatement s = c.prepareStatement("SELECT count(*) FROM event_queue WHERE tenant_id = ANY(?)")) {
            s.setArray(1, tenantArray(c));
            try (ResultSet r = s.executeQuery()) {
                r.next();
                return r.getLong(1);
            }
        }
    }

    private Set<String> deadLetterKeys() throws SQLException {
        Set<String> keys = new HashSet<>();
        deadLetters().forEach(d -> keys.add(TortureOrigin.key(d.tenant(), d.eventId())));
        return keys;
    }

    private List<DeadLetter> deadLetters() throws SQLException {
        List<DeadLetter> rows = new ArrayList<>();
        try (Connection c = connect(); PreparedStatement s = c.prepareStatement("SELECT tenant_id, event_id, "
                + "last_status, attempts, left(last_error, 100), (extract(epoch FROM dead_at) * 1000)::bigint "
                + "FROM dead_letters WHERE tenant_id = ANY(?) ORDER BY id")) {
            s.setArray(1, tenantArray(c));
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    int status = r.getInt(3);
                    rows.add(new DeadLetter(r.getString(1), r.getString(2), r.wasNull() ? null : status, r.getInt(4),
                            r.getString(5), r.getLong(6)));
                }
            }
        }
        return rows;
    }

    private Array tenantArray(Connection c) throws SQLException {
        return c.createArrayOf("text", tenants.keySet().toArray());
    }

    /**
     * CI: {@code <test database>_torture} on the test PostgreSQL, made afresh. The run shares the machine with the other
     * packaged-service tests (failsafe's lanes, docs/testing.md), and a service drains every tenant of its database: on
     * the test database theirs would deliver this run's events to their origins, and this one theirs.
     */
    private static LocalServers.Endpoint databaseOfItsOwn() {
        LocalServers.Endpoint test = ServiceProcess.postgres();
        String name = test.database() + "_torture";
        String url = "jdbc:postgresql://" + test.host() + ":" + test.port() + "/postgres";
        try (Connection c = DriverManager.getConnection(url, test.user(), ""); Statement st = c.createStatement()) {
            st.execute("DROP DATABASE IF EXISTS \"" + name + "\" WITH (FORCE)");
            st.execute("CREATE DATABASE \"" + name + "\"");
        } catch (SQLException e) {
            throw new IllegalStateException("could not make the torture's database " + name + " at " + url, e);
        }
        return new LocalServers.Endpoint(test.host(), test.port(), name, test.user(), false);
    }

    private Connection connect() throws SQLException {
        return DriverManager.getConnection("jdbc:postgresql://" + database.host() + ":" + database.port() + "/"
                + database.database(), database.user(), "");
    }

    private static void sleep(Duration d) throws InterruptedException {
        Thread.sleep(d.toMillis());
    }

    @Override
    public void close() throws IOException {
        if (load != null) {
            load.close();
        }
        if (service != null) {
            service.close();
        }
        origin.close();
        postgresProxy.close();
        redisProxy.close();
    }
}
