package io.webhookbuffer.demo;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Logger;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import io.webhookbuffer.common.Hex;
import io.webhookbuffer.common.Hmac;

/**
 * A demo origin to run beside the buffer: it checks the bearer token and the batch signature, counts and logs what it
 * receives, and can be told to fail. Run it (after {@code mvn -B package -DskipTests}) with
 *
 * <pre>
 * java -cp 'target/quarkus-app/app/*:target/quarkus-app/lib/main/*' io.webhookbuffer.demo.DemoOrigin \
 *      --port 9000 --token demo-origin-token --signing-secret demo-signing-secret
 * </pre>
 *
 * Endpoints: {@code POST /internal/webhooks/batch} (the contract), {@code GET /stats} (counts), and
 * {@code POST /mode?status=503&latencyMs=200&poison=evt_1} to change how it answers while it runs ({@code status=200}
 * and no poison restore normal service).
 */
public final class DemoOrigin implements AutoCloseable {

    /** The JDK's logger: the demo runs on the documented classpath, without the service's logging boot jars. */
    private static final Logger LOG = Logger.getLogger(DemoOrigin.class.getName());
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

    public DemoOrigin(int port, String token, String signingSecret, boolean quiet) throws IOException {
        this.token = token;
        this.signingSecret = signingSecret;
        this.quiet = quiet;
        this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 128);
        server.setExecutor(Executors.newFixedThreadPool(16));
        server.createContext("/internal/webhooks/batch", this::batch);
        server.createContext("/stats", this::stats);
        server.createContext("/mode", this::mode);
        server.start();
    }

    public static void main(String[] args) throws IOException {
        if (System.getProperty("java.util.logging.SimpleFormatter.format") == null) {
            System.setProperty("java.util.logging.SimpleFormatter.format", "%1$tT %5$s%n"); // one line per event
        }
        Map<String, String> options = new LinkedHashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            if (!args[i].startsWith("--")) {
                usage("unexpected argument " + args[i]);
            }
            options.put(args[i].substring(2), args[i + 1]);
        }
        if (args.length % 2 != 0) {
            usage("every option takes a value");
        }
        DemoOrigin origin = new DemoOrigin(Integer.parseInt(options.getOrDefault("port", "9000")),
                options.get("token"), options.get("signing-secret"), Boolean.parseBoolean(options.get("quiet")));
        origin.failStatus = Integer.parseInt(options.getOrDefault("fail-status", "200"));
        origin.latencyMillis = Long.parseLong(options.getOrDefault("latency-ms", "0"));
        origin.poisonEventId = options.get("poison");
        LOG.info(() -> String.format("demo origin on http://127.0.0.1:%d (token %s, signature %s)", origin.port(),
                origin.token == null ? "not checked" : "checked",
                origin.signingSecret == null ? "not checked" : "checked"));
    }

    private static void usage(String problem) {
        LOG.severe(problem + "\nusage: DemoOrigin [--port 9000] [--token T] [--signing-secret S] "
                + "[--fail-status 503] [--latency-ms 200] [--poison EVENT_ID] [--quiet true]");
        System.exit(2);
    }

    public int port() {
        return server.getAddress().getPort();
    }

    /** Counts so far: batches, events, duplicates (an eventId seen before), refused (bad token or signature). */
    public Map<String, Long> stats() {
        return Map.of("batches", batches.get(), "events", events.get(), "distinctEvents", (long) seen.size(),
                "duplicates", duplicates.get(), "refused", refused.get());
    }

    private void batch(HttpExchange exchange) throws IOException {
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
            StringBuilder rejected = new StringBuilder();
            for (JsonNode event : batch) {
                String id = event.path("eventId").asText();
                if (id.equals(poisonEventId)) {
                    rejected.append(rejected.length() == 0 ? "" : ",")
                            .append("{\"eventId\":").append(JSON.writeValueAsString(id))
                            .append(",\"reason\":\"poison (demo origin)\"}");
                    continue;
                }
                events.incrementAndGet();
                if (!seen.add(event.path("tenantId").asText() + "/" + id)) {
                    duplicates.incrementAndGet();
                }
            }
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
        }
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
        String expected = Hex.encode(Hmac.hmacSha256(signingSecret, (ts + ".").getBytes(StandardCharsets.US_ASCII), body));
        return constantTimeEquals(expected, signature);
    }

    private void stats(HttpExchange exchange) throws IOException {
        try (exchange) {
            respond(exchange, 200, JSON.writeValueAsString(stats()));
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
        ((java.util.concurrent.ExecutorService) server.getExecutor()).shutdownNow();
    }
}
