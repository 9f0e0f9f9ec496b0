package io.webhookbuffer.demo;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Logger;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import io.webhookbuffer.common.EventIds;
import io.webhookbuffer.common.Hmac;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * A demo origin to run beside the buffer: it checks the bearer token and the batch signature, counts and logs what it
 * receives, and can be told to fail. Run it (after {@code mvn -B package -DskipTests}) with
 *
 * <pre>
 * java -cp 'target/local/quarkus-app/app/*:target/local/quarkus-app/lib/main/*' io.webhookbuffer.demo.DemoOrigin \
 *      --port 9000 --token demo-origin-token --signing-secret demo-signing-secret
 * </pre>
 *
 * Endpoints: {@code POST /internal/webhooks/batch} (the contract), {@code GET /stats} (counts), {@code GET /ids}
 * (every distinct event received, one {@code tenantId<TAB>eventId} line each, for the benchmark's loss check), and
 * {@code POST /mode?status=503&latencyMs=200&poison=evt_1} to change how it answers while it runs ({@code status=200}
 * and no poison restore normal service).
 *
 * <p>It counts what the benchmark checks: distinct events and tenants, events delivered more than once, batches,
 * per-tenant order violations, the most batches in flight at once, and when the first and the latest new event
 * arrived (the drain rate). The order check reads the benchmark's event ids, {@code <id>~<previous>}: the sender had
 * the 202 for {@code previous} (same tenant) before it sent this event, so the buffer committed {@code previous}
 * first and must deliver it first; an event arriving before its {@code previous} is a violation ({@code previous}
 * is the part of that event's id before its own {@code ~}). Ids without {@code ~} are not checked.
 */
public final class DemoOrigin implements AutoCloseable {

    /** The JDK's logger: the demo runs on the documented classpath, without the service's logging boot jars. */
    private static final Logger LOG = Logger.getLogger(DemoOrigin.class.getName());
    private static final String USAGE = "usage: DemoOrigin [--port 9000] [--token T] [--signing-secret S] "
            + "[--fail-status 503] [--latency-ms 200] [--poison EVENT_ID] [--quiet true]";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long MAX_SKEW_SECONDS = 300;

    static {
        // The JDK server leaves Nagle's algorithm on: with delayed ACKs every small response then waits ~40 ms.
        System.setProperty("sun.net.httpserver.nodelay", "true");
    }

    private final HttpServer server;
    private final String token;
    private final String signingSecret;
    private final boolean quiet;
    private volatile int failStatus = 200;
    private volatile long latencyMillis;
    private volatile String poisonEventId;
    private final AtomicLong batches = new AtomicLong();
    private final AtomicLong events = new AtomicLong();
    private final AtomicLong duplicates = new AtomicLong();
    private final AtomicLong refused = new AtomicLong();
    private final Set<String> seen = ConcurrentHashMap.newKeySet();
    private final Set<String> tenants = ConcurrentHashMap.newKeySet();
    /** tenant TAB the part of each received event id before its {@code ~}: what the order check looks up. */
    private final Set<String> seenBases = ConcurrentHashMap.newKeySet();
    private final AtomicLong orderViolations = new AtomicLong();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger peakInFlight = new AtomicInteger();
    private final AtomicLong firstNewEventAtMillis = new AtomicLong();
    private final AtomicLong lastNewEventAtMillis = new AtomicLong();

    public DemoOrigin(int port, String token, String signingSecret, boolean quiet) throws IOException {
        this.token = token;
        this.signingSecret = signingSecret;
        this.quiet = quiet;
        this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 128);
        // More threads than the buffer's bulkhead allows batches, so the peak in flight shows what the buffer sent.
        server.setExecutor(Executors.newFixedThreadPool(64));
        server.createContext("/internal/webhooks/batch", this::batch);
        server.createContext("/stats", this::stats);
        server.createContext("/ids", this::ids);
        server.createContext("/mode", this::mode);
        server.start();
    }

    public static void main(String[] args) throws IOException {
        if (System.getProperty("java.util.logging.SimpleFormatter.format") == null) {
            System.setProperty("java.util.logging.SimpleFormatter.format", "%1$tT %5$s%n"); // one line per event
        }
        Options options = new Options();
        try {
            if (new CommandLine(options).parseArgs(args).isUsageHelpRequested()) {
                System.out.println(USAGE);
                return;
            }
        } catch (ParameterException e) {
            LOG.severe(e.getMessage() + "\n" + USAGE);
            System.exit(2);
            return;
        }
        DemoOrigin origin = new DemoOrigin(options.port, options.token, options.signingSecret, options.quiet);
        origin.failStatus = options.failStatus;
        origin.latencyMillis = options.latencyMillis;
        origin.poisonEventId = options.poison;
        LOG.info(() -> String.format("demo origin on http://127.0.0.1:%d (token %s, signature %s)", origin.port(),
                origin.token == null ? "not checked" : "checked",
                origin.signingSecret == null ? "not checked" : "checked"));
    }

    /** The command line (picocli): every option takes a value, {@code --help} prints {@link #USAGE}. */
    @Command(name = "DemoOrigin")
    static final class Options {

        @Option(names = "--port")
        int port = 9000;

        @Option(names = "--token")
        String token;

        @Option(names = "--signing-secret")
        String signingSecret;

        @Option(names = "--fail-status")
        int failStatus = 200;

        @Option(names = "--latency-ms")
        long latencyMillis;

        @Option(names = "--poison")
        String poison;

        @Option(names = "--quiet", arity = "1")
        boolean quiet;

        @Option(names = { "--help", "-h" }, usageHelp = true)
        boolean help;
    }

    public int port() {
        return server.getAddress().getPort();
    }

    /**
     * Counts so far: batches, events, distinct events and tenants, duplicates (an eventId seen before), refused (bad
     * token or signature), orderViolations, peakInFlight (most batches in flight at once), and the epoch-millisecond
     * times of the first and the latest event seen for the first time (0 before any).
     */
    public Map<String, Long> stats() {
        Map<String, Long> stats = new LinkedHashMap<>();
        stats.put("batches", batches.get());
        stats.put("events", events.get());
        stats.put("distinctEvents", (long) seen.size());
        stats.put("tenants", (long) tenants.size());
        stats.put("duplicates", duplicates.get());
        stats.put("refused", refused.get());
        stats.put("orderViolations", orderViolations.get());
        stats.put("peakInFlight", (long) peakInFlight.get());
        stats.put("firstNewEventAtMillis", firstNewEventAtMillis.get());
        stats.put("lastNewEventAtMillis", lastNewEventAtMillis.get());
        return stats;
    }

    private void batch(HttpExchange exchange) throws IOException {
        int now = inFlight.incrementAndGet();
        peakInFlight.accumulateAndGet(now, Math::max);
        try (exchange) {
            byte[] body = exchange.getRequestBody().readAllBytes();
            if (!authentic(exchange, body)) {
                refused.incrementAndGet();
                respond(exchange, 401, "{\"error\":\"bad token or signature\"}");
                return;
            }
            if (latencyMillis > 0) {
                Thread.sleep(latencyMillis);
            }
            if (failStatus != 200) {
                respond(exchange, failStatus, "{\"error\":\"told to fail\"}");
                return;
            }
            JsonNode batch = JSON.readTree(body).get("events");
            String rejected = countAndReject(batch);
            long n = batches.incrementAndGet();
            if (!quiet) {
                LOG.info(String.format("batch %d: %d event(s) of tenant %s", n, batch.size(),
                        batch.isEmpty() ? "-" : batch.get(0).path("tenantId").asText()));
            }
            respond(exchange, 200, "{\"rejected\":[" + rejected + "]}");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException | RuntimeException e) {
            respond(exchange, 400, "{\"error\":\"unreadable batch\"}");
        } finally {
            inFlight.decrementAndGet();
        }
    }

    /** Counts the batch's events and returns the rejected entries (the poison event's), comma-separated JSON objects. */
    private String countAndReject(JsonNode batch) throws IOException {
        StringBuilder rejected = new StringBuilder();
        for (JsonNode event : batch) {
            String delivered = event.path("eventId").asText();
            // Counted, ordered and poisoned by the id the sender chose, as an origin splitting a bound id would.
            String id = EventIds.providerId(delivered);
            if (id.equals(poisonEventId)) {
                rejected.append(rejected.length() == 0 ? "" : ",")
                        .append("{\"eventId\":").append(JSON.writeValueAsString(delivered))
                        .append(",\"reason\":\"poison (demo origin)\"}");
                continue;
            }
            count(event.path("tenantId").asText(), id);
        }
        return rejected.toString();
    }

    /** One accepted event: a duplicate, or a new one (its tenant, whether its predecessor came first, its time). */
    private void count(String tenant, String id) {
        events.incrementAndGet();
        if (!seen.add(tenant + '\t' + id)) {
            duplicates.incrementAndGet();
            return;
        }
        tenants.add(tenant);
        int mark = id.indexOf('~');
        seenBases.add(tenant + '\t' + (mark < 0 ? id : id.substring(0, mark)));
        if (mark >= 0 && !seenBases.contains(tenant + '\t' + id.substring(mark + 1))) {
            orderViolations.incrementAndGet();
        }
        long millis = System.currentTimeMillis();
        firstNewEventAtMillis.compareAndSet(0, millis);
        lastNewEventAtMillis.accumulateAndGet(millis, Math::max);
    }

    private boolean authentic(HttpExchange exchange, byte[] body) {
        if (token != null && !constantTimeEquals("Bearer " + token, exchange.getRequestHeaders().getFirst("Authorization"))) {
            return false;
        }
        if (signingSecret == null) {
            return true;
        }
        String ts = exchange.getRequestHeaders().getFirst("X-Buffer-Timestamp");
        String signature = exchange.getRequestHeaders().getFirst("X-Buffer-Signature");
        if (ts == null || signature == null || !ts.matches("[0-9]{1,12}")
                || Math.abs(System.currentTimeMillis() / 1000 - Long.parseLong(ts)) > MAX_SKEW_SECONDS) {
            return false;
        }
        byte[] mac = Hmac.hmacSha256(signingSecret, (ts + ".").getBytes(StandardCharsets.US_ASCII), body);
        String expected = HexFormat.of().formatHex(mac);
        return constantTimeEquals(expected, signature);
    }

    private void stats(HttpExchange exchange) throws IOException {
        try (exchange) {
            respond(exchange, 200, JSON.writeValueAsString(stats()));
        }
    }

    private void ids(HttpExchange exchange) throws IOException {
        try (exchange) {
            exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
            exchange.sendResponseHeaders(200, 0); // chunked: a million ids are not buffered twice
            try (var writer = new BufferedWriter(new OutputStreamWriter(exchange.getResponseBody(),
                    StandardCharsets.UTF_8))) {
                for (String key : seen) {
                    writer.write(key);
                    writer.write('\n');
                }
            }
        }
    }

    private void mode(HttpExchange exchange) throws IOException {
        try (exchange) {
            String query = exchange.getRequestURI().getQuery();
            if (query != null) {
                for (String pair : query.split("&")) {
                    String[] kv = pair.split("=", 2);
                    String value = kv.length == 2 ? kv[1] : "";
                    switch (kv[0]) {
                        case "status" -> failStatus = Integer.parseInt(value);
                        case "latencyMs" -> latencyMillis = Long.parseLong(value);
                        case "poison" -> poisonEventId = value.isEmpty() ? null : value;
                        default -> {
                            respond(exchange, 400, "{\"error\":\"unknown option " + kv[0] + "\"}");
                            return;
                        }
                    }
                }
            }
            respond(exchange, 200, "{\"status\":" + failStatus + ",\"latencyMs\":" + latencyMillis + "}");
        } catch (NumberFormatException e) {
            respond(exchange, 400, "{\"error\":\"numbers expected\"}");
        }
    }

    private static boolean constantTimeEquals(String expected, String actual) {
        return actual != null && MessageDigest.isEqual(expected.getBytes(StandardCharsets.UTF_8),
                actual.getBytes(StandardCharsets.UTF_8));
    }

    static void respond(HttpExchange exchange, int status, String json) throws IOException {
        byte[] out = json.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, out.length);
        try (OutputStream os = exchange.getResponseBody()) {
            os.write(out);
        }
    }

    @Override
    public void close() {
        server.stop(0);
        ((ExecutorService) server.getExecutor()).shutdownNow();
    }
}
