package io.webhookbuffer.abuse;

import java.io.IOException;
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
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.webhookbuffer.local.LocalServers;
import io.webhookbuffer.testsupport.ServiceProcess;
import io.webhookbuffer.testsupport.TestTenants;
import io.webhookbuffer.torture.SignedLoad;

/**
 * One abuse run: the packaged service with the image's JVM flags ({@link AbuseSettings#IMAGE_JVM}), its RSS sampled
 * from /proc, a legitimate signed sender in its own process ({@link LegitProcess}) from the quiet phase to the end,
 * this JVM (the hostile clients) at the lowest CPU priority ({@link AttackerPriority}), and then at once the
 * hostile flood ({@link Hostile}), the slow connections ({@link SlowConnections}) and the oversized bodies
 * ({@link BigBodies}). Delivery is off, so whatever was stored is still in event_queue at the end.
 */
final class AbuseRun implements AutoCloseable {

    static final Path DIR = Path.of("target", "abuse");
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private static final List<String> PROVIDERS = List.of("stripe", "github", "shopify", "slack", "standard-webhooks",
            "paddle", "intercom", "linear", "gitlab");

    final AbuseSettings settings;
    private final String runId = "ab" + UUID.randomUUID().toString().substring(0, 6);
    private final LocalServers.Endpoint database = ServiceProcess.postgres();
    final Tally tally = new Tally();
    final List<long[]> rss = new ArrayList<>(); // {millis, bytes}
    private final List<String> tenantIds = new ArrayList<>();
    private ServiceProcess service;
    private ExecutorService sampler;
    Hostile.Targets targets;
    private LegitProcess legit;
    List<SignedLoad.Answer> legitAnswers = List.of();
    String legitSecret;
    /** What lowering this JVM's priority for the hostile clients came to: "nice 19", or why it did not. */
    String attackerPriority = "not lowered";
    long quietStart;
    /** CPU readings: after the quiet phase's settling, at the abuse's start, at its end. */
    CpuShare cpuQuiet;
    CpuShare cpuAbuse;
    CpuShare cpuEnd;
    long abuseStart;
    long abuseEnd;
    SlowConnections slow;
    String readyDuringAbuse;
    String readyAfter;
    long sentHostile;

    AbuseRun(AbuseSettings settings) throws IOException {
        this.settings = settings;
        Files.createDirectories(DIR);
        try (var old = Files.list(DIR)) {
            for (Path file : old.toList()) {
                Files.deleteIfExists(file);
            }
        }
    }

    void start() throws Exception {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("BUFFER_DELIVERY_ENABLED", "false");
        env.put("BUFFER_WARMUP_MAX_DURATION", settings.serviceWarmup.toSeconds() + "s");
        env.put("QUARKUS_SHUTDOWN_DELAY", settings.serviceShutdownDelay.toSeconds() + "s");
        service = ServiceProcess.start("abuse/service-" + runId, ServiceProcess.freePort(), env, settings.serviceJvm());
        service.awaitReady();
        long pid = service.process().pid();
        sampler = Executors.newSingleThreadExecutor(r -> daemon(r, "abuse-rss"));
        sampler.submit(() -> sampleRss(pid));
        legitSecret = "abuse-legit-" + UUID.randomUUID();
        String legit = provision(TestTenants.tenant().secrets(legitSecret).rateLimit(1_000_000, 1));
        String small = provision(TestTenants.tenant().maxBodyBytes(1024));
        String large = provision(TestTenants.tenant().maxBodyBytes(25 * 1024 * 1024));
        Map<String, String> providers = new LinkedHashMap<>();
        for (String provider : PROVIDERS) {
            TestTenants t = TestTenants.tenant().provider(provider);
            if ("standard-webhooks".equals(provider)) {
                t.secrets("whsec_" + Base64.getEncoder().encodeToString(UUID.randomUUID().toString().getBytes()));
            }
            providers.put(provider, provision(t));
        }
        String oddSecret = "abuse-odd-" + UUID.randomUUID();
        String odd = provision(TestTenants.tenant().provider("stripe").secrets(oddSecret));
        targets = new Hostile.Targets(legit, small, large, providers, odd, oddSecret);
    }

    /** The legitimate sender alone: its quiet latency. */
    void quiet() throws IOException, InterruptedException {
        if (settings.prewarmRounds > 0) {
            // A replica that has met such uploads before: rounds of them, not counted, before the sender starts.
            new BigBodies(service.port(), targets, new Tally(), runId + "-pre").push(settings.big,
                    settings.prewarmRounds, settings.bigBytes, settings.bigTargets);
        }
        legit = LegitProcess.start("http://127.0.0.1:" + service.port(), targets.legit(), legitSecret,
                settings.legitRate, DIR.resolve("legit-sender.log"));
        // The service and the sender were started at this JVM's priority; from here on the hostile clients get
        // only what the buffer leaves of the cores, in both phases, as an attacker on other machines would.
        attackerPriority = AttackerPriority.lower(settings.attackerNice) + ", "
                + AttackerPriority.policy(settings.attackerPolicy) + ", " + AttackerPriority.pin(settings.attackerCpus);
        quietStart = System.currentTimeMillis();
        Thread.sleep(settings.quietSettle.toMillis());
        cpuQuiet = cpu();
        Thread.sleep(settings.quiet.toMillis());
    }

    /** Everything hostile at once, beside the legitimate sender; returns when all of it is done. */
    void abuse() throws Exception {
        abuseStart = System.currentTimeMillis();
        cpuAbuse = cpu();
        slow = new SlowConnections(service.port(), targets, tally);
        Thread slowThread = daemon(() -> slow.hold(settings.slow, settings.slowHold), "abuse-slow");
        slowThread.start();
        BigBodies big = new BigBodies(service.port(), targets, tally, runId);
        Thread bigThread = daemon(() -> big.push(settings.big, settings.bigRounds, settings.bigBytes,
                settings.bigTargets), "abuse-big");
        bigThread.start();
        flood();
        bigThread.join(TimeUnit.MINUTES.toMillis(5));
        slowThread.join(settings.slowHold.toMillis() + TimeUnit.MINUTES.toMillis(2));
        readyDuringAbuse = ready();
        slow.finish();
        abuseEnd = System.currentTimeMillis();
        cpuEnd = cpu();
    }

    /** The hostile requests, paced at {@code hostile-rate}, {@code hostile-concurrency} connections at a time. */
    private void flood() throws InterruptedException {
        List<Hostile> catalogue = Hostile.catalogue(targets, settings.hostileGroups);
        ExecutorService pool = Executors.newFixedThreadPool(settings.hostileConcurrency, r -> daemon(r, "abuse-flood"));
        AtomicLong next = new AtomicLong();
        long start = System.nanoTime();
        long nanosEach = 1_000_000_000L / settings.hostileRate;
        Duration within = Duration.ofSeconds(3);
        for (int w = 0; w < settings.hostileConcurrency; w++) {
            pool.submit(() -> {
                for (long i = next.getAndIncrement(); i < settings.hostile; i = next.getAndIncrement()) {
                    long due = start + i * nanosEach - System.nanoTime();
                    if (due > 0) {
                        sleepNanos(due);
                    }
                    // One in hostile-unknown-every (a third) are unknown tenants, each id new: "by the thousand".
                    int every = settings.hostileUnknownEvery;
                    Hostile h = every > 0 && i % every == 0 ? Hostile.unknown(runId, i)
                            : catalogue.get((int) ((every > 0 ? i - i / every - 1 : i) % catalogue.size()));
                    tally.exchange(h.group(), h.name(), service.port(), h.bytes(), h.halfClose(), within);
                }
            });
        }
        pool.shutdown();
        pool.awaitTermination(10, TimeUnit.MINUTES);
        sentHostile = next.get() > settings.hostile ? settings.hostile : next.get();
    }

    /** Stops the sender, checks readiness, reads the database and stops the service. */
    void finish() throws Exception {
        Thread.sleep(2000); // the sender's last seconds after the abuse: its tail is part of the run
        legitAnswers = legit.stop();
        readyAfter = ready();
        service.process().destroy();
        if (!service.process().waitFor(60, TimeUnit.SECONDS)) {
            service.close();
        }
        sampler.shutdownNow();
    }

    boolean alive() {
        return service.isAlive();
    }

    /** Rows in event_queue, processed_events and dead_letters per provisioned tenant (none listed: none). */
    Map<String, long[]> stored() throws SQLException {
        Map<String, long[]> out = new LinkedHashMap<>();
        try (Connection c = connect()) {
            for (String table : List.of("event_queue", "processed_events", "dead_letters")) {
                try (PreparedStatement s = c.prepareStatement("SELECT tenant_id, count(*) FROM " + table
                        + " WHERE tenant_id = ANY(?) OR tenant_id LIKE ? GROUP BY tenant_id")) {
                    s.setArray(1, c.createArrayOf("text", tenantIds.toArray()));
                    s.setString(2, runId + "%");
                    try (ResultSet r = s.executeQuery()) {
                        while (r.next()) {
                            out.computeIfAbsent(r.getString(1), t -> new long[3])[List.of("event_queue",
                                    "processed_events", "dead_letters").indexOf(table)] = r.getLong(2);
                        }
                    }
                }
            }
        }
        return out;
    }

    /** The legitimate tenant's queued rows whose body is not one the legitimate sender sent. */
    long foreignLegitRows() throws SQLException {
        try (Connection c = connect(); PreparedStatement s = c.prepareStatement("SELECT count(*) FROM event_queue "
                + "WHERE tenant_id = ? AND encode(substring(body from 1 for 10), 'escape') <> '{\"id\":\"ev-'")) {
            s.setString(1, targets.legit());
            try (ResultSet r = s.executeQuery()) {
                r.next();
                return r.getLong(1);
            }
        }
    }

    Path log() {
        return Path.of("target", "abuse", "service-" + runId + ".log");
    }

    long errorLines() throws IOException {
        if (!Files.exists(log())) {
            return 0;
        }
        try (var lines = Files.lines(log(), StandardCharsets.UTF_8)) {
            return lines.filter(l -> l.contains(" ERROR ")).count();
        }
    }

    /** The first {@code max} ERROR lines of the service's log, for the summary (a failed run's log is overwritten). */
    List<String> errorSamples(int max) throws IOException {
        if (!Files.exists(log())) {
            return List.of();
        }
        try (var lines = Files.lines(log(), StandardCharsets.UTF_8)) {
            return lines.filter(l -> l.contains(" ERROR ")).limit(max).toList();
        }
    }

    private String provision(TestTenants tenant) throws IOException, InterruptedException {
        int status = service.command(tenant.id(), tenant.json());
        if (status != 200) {
            throw new IllegalStateException("provisioning " + tenant.id() + " answered " + status);
        }
        tenantIds.add(tenant.id());
        return tenant.id();
    }

    private String ready() {
        try {
            HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + service.port()
                    + "/q/health/ready")).timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
            return Integer.toString(r.statusCode());
        } catch (IOException e) {
            return "no answer: " + e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }

    private CpuShare cpu() {
        return CpuShare.now(service.process().pid(), legit.pid());
    }

    private void sampleRss(long pid) {
        Path status = Path.of("/proc", Long.toString(pid), "status");
        try {
            while (!Thread.currentThread().isInterrupted()) {
                for (String line : Files.readAllLines(status)) {
                    if (line.startsWith("VmRSS:")) {
                        long kb = Long.parseLong(line.replaceAll("\\D", ""));
                        synchronized (rss) {
                            rss.add(new long[] { System.currentTimeMillis(), kb * 1024 });
                        }
                    }
                }
                Thread.sleep(100);
            }
        } catch (IOException | InterruptedException e) {
            // the process ended, or the run did
        }
    }

    private Connection connect() throws SQLException {
        return DriverManager.getConnection("jdbc:postgresql://" + database.host() + ":" + database.port() + "/"
                + database.database(), database.user(), "");
    }

    static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }

    private static void sleepNanos(long nanos) {
        try {
            TimeUnit.NANOSECONDS.sleep(nanos);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        if (legit != null) {
            legit.close();
        }
        if (slow != null) {
            slow.finish();
        }
        if (service != null) {
            service.close();
        }
        if (sampler != null) {
            sampler.shutdownNow();
        }
    }
}
