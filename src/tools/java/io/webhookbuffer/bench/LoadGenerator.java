package io.webhookbuffer.bench;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.Writer;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.webhookbuffer.controlplane.CommandSignature;
import io.webhookbuffer.controlplane.CommandSignature.Direction;

/**
 * The benchmark's load generator: signed webhooks with unique event ids (and a share of deliberate duplicates) over
 * keep-alive connections ({@link LeanConnection}: pre-encoded requests on Vert.x sockets, so the generator takes as
 * little as it can of the cores it shares with the buffer), with ack latency in HdrHistogram. Open model
 * ({@code --rate}: requests leave on a fixed schedule and latency counts from the scheduled time) or closed loop
 * (no {@code --rate}: each connection sends its next request when the previous one is answered). Every id answered
 * 202 is written to {@code --accepted-out} for the loss check.
 *
 * <p>Event ids carry what the order check needs: {@code <id>~<previous>}, where {@code previous} is the id of the
 * event of the same tenant whose 202 this generator received last before sending. That event was committed before
 * this one arrived, so the buffer must deliver it first (the counting origin checks it). Run it on the packaged
 * classpath:
 *
 * <pre>
 * java -cp 'target/local/quarkus-app/app/*:target/local/quarkus-app/lib/main/*' io.webhookbuffer.bench.LoadGenerator \
 *      --url http://127.0.0.1:8080 --tenants 10 --webhook-secret S --connections 64 --duration 20s
 * </pre>
 */
public final class LoadGenerator {

    static final String USAGE = """
            usage: LoadGenerator --url http://127.0.0.1:8080 [--path /webhook/] [--tenants 10] [--tenant-prefix bench]
                   [--webhook-secret S] [--provider generic] [--connections 64] [--threads 1]
                   [--duration 20s | --count N] [--warmup 0s] [--rate N [--burst-rate N --burst-at 10s --burst-for 10s]]
                   [--duplicates 0.05] [--body-bytes 1260] [--hot-share 0.5] [--max-outstanding 50000]
                   [--tenant-from 0] [--provision true|only --control-secret C] [--accepted-out FILE]
                   [--result-out FILE] [--label NAME] [--warmup-path /bench/ceiling?tenant=] [--timeline FILE]
                   [--windows cold=0-15,warm=45-60] [--self-warmup 10s [--warmed-file FILE]] [--await-ready 120s]
            Tenants are {prefix}-{tenant-from}..{prefix}-{tenants - 1}; with --hot-share, {prefix}-0 is the hot one.
            --provision only creates the tenants (signed PUT /control/tenants/{id}) and sends no load.
            --warmup-path sends the warm-up there instead (cold-start runs: the generator warm, the ingest path cold).
            --timeline writes one line per second: answers, their p50/p99/max ack latency, failures.
            --windows measures named parts of the run on their own (seconds after the measured start).
            --self-warmup first sends the same load for that long to a server inside this JVM (its code compiled,
            the target untouched), then touches --warmed-file; --await-ready then polls {url}/q/health/ready until
            it answers 200 before provisioning and loading, so the load starts within 50 ms of readiness.""";
    /** The options it takes (package-private for its tests). */
    static final Set<String> OPTIONS = Set.of("url", "path", "tenants", "tenant-prefix", "webhook-secret",
            "provider", "connections", "threads", "duration", "count", "warmup", "rate", "burst-rate", "burst-at",
            "burst-for", "duplicates", "body-bytes", "hot-share", "max-outstanding", "provision", "control-secret",
            "accepted-out", "result-out", "label", "tenant-from", "warmup-path", "timeline", "windows", "self-warmup",
            "warmed-file", "await-ready");
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    static final Duration GRACE = Duration.ofSeconds(30);
    /**
     * Control commands in flight while provisioning. Each claims its nonce in Redis; more than the service's Redis
     * pool and its wait queue hold at once are refused with 503 (nonce_store_unavailable).
     */
    private static final int PROVISION_LANES = 8;

    /** One run's settings, checked. */
    record Settings(URI url, String path, int tenants, String tenantPrefix, String webhookSecret, String provider,
            int connections, int threads, Duration duration, long count, Duration warmup, double rate, double burstRate,
            Duration burstAt, Duration burstFor, double duplicates, int bodyBytes, double hotShare, int maxOutstanding,
            String provision, String controlSecret, Path acceptedOut, Path resultOut, String label, int tenantFrom,
            String warmupPath, Path timeline, Windows windows, Duration selfWarmup, Path warmedFile,
            Duration awaitReady) {

        static Settings from(CliOptions o) {
            double rate = o.decimal("rate", 0, 0, 10_000_000);
            long count = o.longValue("count", 0, 0, Long.MAX_VALUE);
            // A request count alone bounds the run; a duration alone, or both (whichever ends first), too.
            Duration fallbackDuration = count > 0 ? Duration.ofHours(1) : Duration.ofSeconds(20);
            Settings s = new Settings(URI.create(o.required("url")), o.get("path", "/webhook/"),
                    o.integer("tenants", 10, 1, 10_000_000), o.get("tenant-prefix", "bench"),
                    o.get("webhook-secret", "bench-webhook-secret"), o.get("provider", "generic"),
                    o.integer("connections", 64, 1, 100_000), o.integer("threads", 1, 1, 64),
                    o.duration("duration", fallbackDuration), count,
                    o.duration("warmup", Duration.ZERO), rate, o.decimal("burst-rate", rate, 0, 10_000_000),
                    o.duration("burst-at", Duration.ZERO), o.duration("burst-for", Duration.ZERO),
                    o.decimal("duplicates", 0, 0, 0.99), o.integer("body-bytes", 1260, 0, 16 << 20),
                    o.decimal("hot-share", 0, 0, 0.99), o.integer("max-outstanding", 50_000, 1, 10_000_000),
                    o.get("provision", "false"), o.get("control-secret", null),
                    pathOrNull(o.get("accepted-out", null)), pathOrNull(o.get("result-out", null)),
                    o.get("label", "load"), o.integer("tenant-from", 0, 0, 10_000_000), o.get("warmup-path", null),
                    pathOrNull(o.get("timeline", null)), Windows.parse(o.get("windows", null)),
                    o.duration("self-warmup", Duration.ZERO), pathOrNull(o.get("warmed-file", null)),
                    o.duration("await-ready", Duration.ZERO));
            // The options that only make sense together, checked in this order; the first broken rule is the answer.
            refuseIf(!Set.of("false", "true", "only").contains(s.provision), "--provision takes true, false or only");
            refuseIf(!"false".equals(s.provision) && s.controlSecret == null, "--provision needs --control-secret");
            refuseIf(s.tenantFrom >= s.tenants, "--tenant-from must be below --tenants");
            refuseIf(s.hotShare > 0 && s.tenants < 2, "--hot-share needs at least 2 tenants");
            refuseIf(s.warmupPath != null && s.warmup.isZero(), "--warmup-path needs --warmup");
            refuseIf(s.windows.endNanos() > s.duration.toNanos(), "--windows end after --duration");
            refuseIf(!s.burstFor.isZero() && rate == 0, "a burst needs --rate (open model)");
            RequestSigner.forScheme(s.provider); // fails on an unknown scheme before any load is sent
            return s;
        }

        private static void refuseIf(boolean broken, String reason) {
            if (broken) {
                throw new IllegalArgumentException(reason);
            }
        }

        private static Path pathOrNull(String p) {
            return p == null ? null : Path.of(p);
        }

        boolean openModel() {
            return rate > 0;
        }

        /** The same load for {@code length}, to {@code target}, with no provisioning, windows or files. */
        Settings selfWarmupAgainst(URI target, Duration length) {
            return new Settings(target, path, tenants, tenantPrefix, webhookSecret, provider, connections, threads,
                    length, 0, Duration.ZERO, rate, rate, Duration.ZERO, Duration.ZERO, duplicates, bodyBytes,
                    hotShare, maxOutstanding, "false", controlSecret, null, null, "self-warmup", tenantFrom, null,
                    null, Windows.none(), Duration.ZERO, null, Duration.ZERO);
        }

        String tenant(int index) {
            return tenantPrefix + "-" + index;
        }
    }

    final Settings settings;
    private final PrintWriter out;
    // Shared by the drivers (LoadDriver), one per event loop: the signer, the recorders and counters they fill.
    final RequestSigner signer;
    final Recorder all = new Recorder(3);
    /** Every answer's latency, warm-up included, read once a second for {@code --timeline}. */
    final Recorder perSecond = new Recorder(3);
    final LongAdder failedThisSecond = new LongAdder();
    private final List<String> timeline = new ArrayList<>();
    final Recorder hot = new Recorder(3);
    final Recorder quiet = new Recorder(3);
    final Map<String, LongAdder> statuses = new ConcurrentHashMap<>();
    final Map<String, LongAdder> errors = new ConcurrentHashMap<>();
    final LongAdder unsent = new LongAdder();
    final AtomicLong nextTenant = new AtomicLong();
    final String runId = Long.toString(System.currentTimeMillis(), 36);
    final String filler;
    private long readyAtEpochMs;

    LoadGenerator(Settings settings, PrintWriter out) {
        this.settings = settings;
        this.out = out;
        this.signer = RequestSigner.forScheme(settings.provider());
        this.filler = "x".repeat(settings.bodyBytes());
    }

    public static void main(String[] args) throws Exception {
        PrintWriter out = new PrintWriter(new OutputStreamWriter(new FileOutputStream(FileDescriptor.out),
                StandardCharsets.UTF_8), true);
        Settings settings;
        try {
            CliOptions options = CliOptions.parse(args, OPTIONS);
            if (options.helpRequested()) {
                out.println(USAGE);
                return;
            }
            settings = Settings.from(options);
        } catch (IllegalArgumentException e) {
            out.println("error: " + e.getMessage());
            out.println(USAGE);
            Runtime.getRuntime().exit(2);
            return;
        }
        LoadResult result = new LoadGenerator(settings, out).run();
        if (result != null) {
            out.print(describe(result));
        }
        out.flush();
        Runtime.getRuntime().exit(result != null && result.requests() == 0 ? 1 : 0);
    }

    /**
     * Provisions the tenants if asked, runs the load, writes the accepted ids and the result file. Returns null when
     * asked only to provision.
     */
    LoadResult run() throws Exception {
        // Linux epoll where the native library loads (NIO elsewhere): fewer core-µs per request on the shared cores.
        Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(settings.threads())
                .setPreferNativeTransport(true));
        try {
            long readyAt = 0;
            if (!settings.selfWarmup().isZero()) {
                SelfWarmup.run(vertx, settings, out);
            }
            if (!settings.awaitReady().isZero()) {
                readyAt = SelfWarmup.awaitReady(vertx, settings, out);
            }
            this.readyAtEpochMs = readyAt;
            if (!"false".equals(settings.provision())) {
                provision(vertx);
            }
            if ("only".equals(settings.provision())) {
                return null;
            }
            return load(vertx);
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
    }

    LoadResult load(Vertx vertx) throws Exception {
        int threads = settings.threads();
        long startNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(200); // every driver deployed by then
        List<LoadDriver> drivers = new ArrayList<>();
        List<Future<Void>> finished = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            int connections = settings.connections() / threads + (i < settings.connections() % threads ? 1 : 0);
            long count = settings.count() == 0 ? Long.MAX_VALUE
                    : settings.count() / threads + (i < settings.count() % threads ? 1 : 0);
            LoadDriver driver = new LoadDriver(this, i, Math.max(1, connections), count, startNanos);
            drivers.add(driver);
            finished.add(driver.finished.future());
            vertx.deployVerticle(driver).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
        long timeoutSeconds = settings.warmup().plus(settings.duration()).plus(GRACE).toSeconds()
                + (settings.count() > 0 ? 3600 : 0);
        long ticker = settings.timeline() == null ? -1 : vertx.setPeriodic(
                Math.max(1, TimeUnit.NANOSECONDS.toMillis(startNanos - System.nanoTime())) + 1000, 1000,
                t -> timelineLine((System.nanoTime() - startNanos) / 1_000_000_000.0));
        Future.all(finished).toCompletionStage().toCompletableFuture().get(timeoutSeconds, TimeUnit.SECONDS);
        if (ticker >= 0) {
            vertx.cancelTimer(ticker);
            // A tick may be running on its event loop right now (the run's end and a whole second often coincide):
            // the lines are written under the same lock, so neither line is lost (LoadGeneratorTests caught it).
            synchronized (timeline) {
                timelineLine((System.nanoTime() - startNanos) / 1_000_000_000.0);
                Files.write(settings.timeline(), timeline, StandardCharsets.UTF_8);
            }
        }
        long ended = drivers.stream().mapToLong(d -> d.lastStartNanos).max().orElse(startNanos);
        long accepted = writeAccepted(drivers);
        LoadResult result = result(startNanos, ended, accepted,
                System.currentTimeMillis() + TimeUnit.NANOSECONDS.toMillis(startNanos + settings.warmup().toNanos()
                        - System.nanoTime()));
        if (settings.resultOut() != null) {
            JSON.writeValue(settings.resultOut().toFile(), result);
        }
        return result;
    }

    /**
     * One {@code --timeline} line: the answers of the last second (warm-up included), with their p50/p99/max ack
     * latency, the requests that failed, and the wall-clock time of the line (epoch ms), to line a stall up with
     * the server's own logs and samples; a stall shows as a second with few answers and then a high maximum.
     */
    private void timelineLine(double secondsIn) {
        synchronized (timeline) { // the ticker's event loop, and the main thread for the last line
            Histogram h = perSecond.getIntervalHistogram();
            if (timeline.isEmpty()) {
                timeline.add("second\tanswered\tp50_ms\tp99_ms\tmax_ms\tfailed\tepoch_ms");
            }
            timeline.add(String.format(Locale.ROOT, "%.1f\t%d\t%.2f\t%.2f\t%.2f\t%d\t%d", secondsIn,
                    h.getTotalCount(), h.getValueAtPercentile(50) / 1000.0, h.getValueAtPercentile(99) / 1000.0,
                    h.getMaxValue() / 1000.0, failedThisSecond.sumThenReset(), System.currentTimeMillis()));
        }
    }

    private LoadResult result(long startNanos, long lastStartNanos, long accepted, long measuredFromEpochMs) {
        long measureFrom = startNanos + settings.warmup().toNanos();
        double seconds = settings.count() > 0 && settings.warmup().isZero()
                ? Math.max(1e-3, (lastStartNanos - startNanos) / 1e9)
                : Math.min(settings.duration().toNanos(), Math.max(1, lastStartNanos - measureFrom)) / 1e9;
        Histogram allHistogram = all.getIntervalHistogram();
        Map<String, Long> byStatus = snapshot(statuses);
        long requests = allHistogram.getTotalCount() + snapshot(errors).values().stream().mapToLong(Long::longValue).sum();
        long acceptedMeasured = byStatus.getOrDefault("202", 0L);
        return new LoadResult(settings.label(), settings.openModel() ? "open" : "closed", settings.rate(),
                settings.connections(), settings.tenants(), seconds, requests, requests / seconds,
                acceptedMeasured / seconds, byStatus, snapshot(errors), unsent.sum(),
                LoadResult.Latency.of(allHistogram), LoadResult.Latency.of(hot.getIntervalHistogram()),
                LoadResult.Latency.of(quiet.getIntervalHistogram()), accepted, settings.windows().results(),
                measuredFromEpochMs, readyAtEpochMs);
    }

    private static Map<String, Long> snapshot(Map<String, LongAdder> counters) {
        Map<String, Long> copy = new TreeMap<>();
        counters.forEach((k, v) -> copy.put(k, v.sum()));
        return copy;
    }

    private long writeAccepted(List<LoadDriver> drivers) throws IOException {
        long n = 0;
        Writer writer = settings.acceptedOut() == null ? Writer.nullWriter()
                : Files.newBufferedWriter(settings.acceptedOut(), StandardCharsets.UTF_8);
        try (writer) {
            for (LoadDriver d : drivers) {
                for (String line : d.accepted) {
                    writer.write(line);
                    writer.write('\n');
                    n++;
                }
            }
        }
        return n;
    }

    /** Human-readable lines for one result. */
    static String describe(LoadResult r) {
        StringBuilder s = new StringBuilder();
        s.append(String.format("%s: %s, %d connections, %d tenants, %.1f s measured%n", r.label(),
                "open".equals(r.mode()) ? String.format("open model at %.0f/s", r.targetRate()) : "closed loop",
                r.connections(), r.tenants(), r.measuredSeconds()));
        s.append(String.format("  requests/s %.0f   202/s %.0f   statuses %s   errors %s   unsent %d   accepted ids %d%n",
                r.requestsPerSecond(), r.acceptedPerSecond(), r.statuses(), r.errors(), r.unsent(), r.acceptedIds()));
        appendLatency(s, "ack latency ms", r.latency());
        for (LoadResult.Window w : r.windows() == null ? List.<LoadResult.Window>of() : r.windows()) {
            s.append(String.format("  window %s (%.0f-%.0f s): requests/s %.0f   202/s %.0f%n", w.name(), w.fromSeconds(),
                    w.toSeconds(), w.requestsPerSecond(), w.acceptedPerSecond()));
            appendLatency(s, "  ack latency ms", w.latency());
        }
        if (r.hotLatency().count() > 0) {
            appendLatency(s, "  hot tenant   ", r.hotLatency());
            appendLatency(s, "  quiet tenants", r.quietLatency());
        }
        return s.toString();
    }

    private static void appendLatency(StringBuilder s, String name, LoadResult.Latency l) {
        s.append(String.format("  %s  p50 %.2f  p90 %.2f  p99 %.2f  p99.9 %.2f  max %.2f  (n=%d)%n", name, l.p50(),
                l.p90(), l.p99(), l.p999(), l.max(), l.count()));
    }

    // ---- provisioning through signed control commands ------------------------------------------------------------

    private void provision(Vertx vertx) throws Exception {
        long started = System.nanoTime();
        HttpClient client = vertx.createHttpClient(clientOptions(), new PoolOptions().setHttp1MaxSize(PROVISION_LANES)
                .setMaxWaitQueueSize(-1));
        byte[] body = ("{\"provider\":\"" + settings.provider() + "\",\"secrets\":[\"" + settings.webhookSecret()
                + "\"],\"rateLimit\":1000000,\"rateWindowSeconds\":1}").getBytes(StandardCharsets.UTF_8);
        AtomicInteger next = new AtomicInteger();
        CompletableFuture<Void> done = new CompletableFuture<>();
        AtomicInteger running = new AtomicInteger(PROVISION_LANES);
        for (int lane = 0; lane < PROVISION_LANES; lane++) {
            provisionNext(vertx, client, body, next.getAndIncrement(), 1, next, running, done);
        }
        done.get(30 + settings.tenants() / 100, TimeUnit.SECONDS);
        client.close();
        out.printf("provisioned %d tenants in %.1f s%n", settings.tenants(), (System.nanoTime() - started) / 1e9);
    }

    /** Provisions tenant {@code i}, retrying a 503 (the control plane asks for a retry with a new nonce). */
    private void provisionNext(Vertx vertx, HttpClient client, byte[] body, int i, int attempt, AtomicInteger next,
            AtomicInteger running, CompletableFuture<Void> done) {
        if (i >= settings.tenants()) {
            if (running.decrementAndGet() == 0) {
                done.complete(null);
            }
            return;
        }
        String ts = Long.toString(System.currentTimeMillis() / 1000);
        String nonce = CommandSignature.newNonce();
        String target = "/control/tenants/" + settings.tenant(i);
        String signature = CommandSignature.signV2(settings.controlSecret(), Direction.COMMAND, "PUT", target, ts,
                nonce, body);
        RequestOptions options = new RequestOptions().setMethod(HttpMethod.PUT)
                .setURI(target).setTimeout(30_000)
                .putHeader("content-type", "application/json").putHeader("x-timestamp", ts)
                .putHeader("x-nonce", nonce).putHeader("x-signature", signature);
        client.request(options).compose(req -> req.send(Buffer.buffer(body)))
                .compose(resp -> resp.body().map(b -> resp.statusCode() == 200 ? null : resp.statusCode() + " " + b))
                .onComplete(ar -> {
                    if (ar.succeeded() && ar.result() == null) {
                        provisionNext(vertx, client, body, next.getAndIncrement(), 1, next, running, done);
                    } else if (attempt < 5 && (ar.failed() || ar.result().startsWith("503"))) {
                        vertx.setTimer(200L * attempt,
                                t -> provisionNext(vertx, client, body, i, attempt + 1, next, running, done));
                    } else {
                        done.completeExceptionally(new IllegalStateException("provisioning " + settings.tenant(i)
                                + " failed: " + (ar.failed() ? ar.cause() : ar.result())));
                    }
                });
    }

    static int port(URI url) {
        return url.getPort() < 0 ? 80 : url.getPort();
    }

    private HttpClientOptions clientOptions() {
        return new HttpClientOptions().setDefaultHost(settings.url().getHost())
                .setDefaultPort(port(settings.url()))
                .setKeepAlive(true).setTcpNoDelay(true).setPipelining(false);
    }
}
