package io.webhookbuffer.demo;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import java.util.logging.Logger;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import io.webhookbuffer.controlplane.CommandSignature;
import io.webhookbuffer.controlplane.CommandSignature.Direction;
import io.webhookbuffer.controlplane.CommandSignature.SignedRequest;
import io.webhookbuffer.controlplane.Refusal;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * A demo control plane to run beside the buffer: it receives what the buffer sends up, checks each request's
 * signature ({@code x-timestamp}, {@code x-nonce} remembered for 600 s, {@code x-signature} in v1 or v2, counted in
 * {@code /stats} as {@code v1Pushes} and {@code v2Pushes}), upserts usage snapshots
 * on (tenantId, periodKey), keeps lifecycle events once per {@code dedupeKey}, and can be told to fail. Run it
 * (after {@code mvn -B package -DskipTests}) with
 *
 * <pre>
 * java -cp 'target/local/quarkus-app/app/*:target/local/quarkus-app/lib/main/*' io.webhookbuffer.demo.DemoControlPlane \
 *      --port 9100 --secret local-demo-control-secret
 * </pre>
 *
 * Endpoints: {@code POST /usage} and {@code POST /lifecycle-events} (the contract), {@code GET /stats} (what it holds)
 * and {@code POST /mode?status=503} to make it fail ({@code status=200} restores normal service).
 */
public final class DemoControlPlane implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(DemoControlPlane.class.getName());
    private static final String USAGE = "usage: DemoControlPlane [--port 9100] --secret S (or BUFFER_CONTROL_SECRET)";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long TOLERANCE_SECONDS = 300;
    private static final long NONCE_TTL_MILLIS = 600_000;

    private final HttpServer server;
    private final List<String> secrets;
    private volatile int failStatus = 200;
    /** Lifecycle events it refuses: a batch holding one is answered 422 and nothing of it is kept. */
    private volatile Predicate<JsonNode> refusedEvents = event -> false;
    private final AtomicLong refusedBatches = new AtomicLong();
    private final Map<String, JsonNode> snapshots = new ConcurrentHashMap<>();
    private final Map<String, JsonNode> events = new ConcurrentHashMap<>();
    private final List<Integer> eventBatches = Collections.synchronizedList(new ArrayList<>());
    private final Map<String, Long> nonces = new ConcurrentHashMap<>();
    private final AtomicLong usagePosts = new AtomicLong();
    private final AtomicLong duplicateEvents = new AtomicLong();
    private final AtomicLong refused = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final AtomicLong v1Pushes = new AtomicLong();
    private final AtomicLong v2Pushes = new AtomicLong();

    public DemoControlPlane(int port, String secret) throws IOException {
        this.secrets = List.of(secret);
        this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 64);
        server.setExecutor(Executors.newFixedThreadPool(4));
        server.createContext("/usage", exchange -> receive(exchange, this::usage));
        server.createContext("/lifecycle-events", exchange -> receive(exchange, this::lifecycle));
        server.createContext("/stats", this::stats);
        server.createContext("/mode", this::mode);
        server.start();
    }

    public static void main(String[] args) throws IOException {
        if (System.getProperty("java.util.logging.SimpleFormatter.format") == null) {
            System.setProperty("java.util.logging.SimpleFormatter.format", "%1$tT %5$s%n");
        }
        Options options = new Options();
        String problem;
        try {
            if (new CommandLine(options).parseArgs(args).isUsageHelpRequested()) {
                System.out.println(USAGE);
                return;
            }
            problem = options.secret == null ? "--secret is required (or BUFFER_CONTROL_SECRET)" : null;
        } catch (ParameterException e) {
            problem = e.getMessage();
        }
        if (problem != null) {
            LOG.severe(problem + "\n" + USAGE);
            System.exit(2);
            return;
        }
        DemoControlPlane plane = new DemoControlPlane(options.port, options.secret);
        LOG.info(() -> "demo control plane on http://127.0.0.1:" + plane.port() + " (signatures checked)");
    }

    /** The command line (picocli): every option takes a value, {@code --help} prints {@link #USAGE}. */
    @Command(name = "DemoControlPlane")
    static final class Options {

        @Option(names = "--port")
        int port = 9100;

        @Option(names = "--secret", defaultValue = "${env:BUFFER_CONTROL_SECRET}")
        String secret;

        @Option(names = { "--help", "-h" }, usageHelp = true)
        boolean help;
    }

    public String baseUrl() {
        return "http://127.0.0.1:" + port();
    }

    public int port() {
        return server.getAddress().getPort();
    }

    /** Answer every push with this status (200: normal service). */
    public void answer(int status) {
        this.failStatus = status;
    }

    /**
     * Refuse every lifecycle batch that holds an event matching {@code event} with a 422, as a control plane that
     * cannot read one event would (a test's poison); the other batches are taken as usual.
     */
    public void refuse(Predicate<JsonNode> event) {
        this.refusedEvents = event;
    }

    /** The stored snapshot of one tenant's period, or null. */
    public JsonNode snapshot(String tenantId, String periodKey) {
        return snapshots.get(tenantId + "\n" + periodKey);
    }

    public List<JsonNode> snapshots(String tenantId) {
        return snapshots.values().stream().filter(s -> tenantId.equals(s.path("tenantId").asText())).toList();
    }

    /** Lifecycle events kept (one per dedupeKey) of a tenant. */
    public List<JsonNode> events(String tenantId) {
        return events.values().stream().filter(e -> tenantId.equals(e.path("tenantId").asText()))
                .sorted((a, b) -> Long.compare(a.path("id").asLong(), b.path("id").asLong())).toList();
    }

    /** Sizes of the lifecycle batches received, in order. */
    public List<Integer> eventBatches() {
        synchronized (eventBatches) {
            return List.copyOf(eventBatches);
        }
    }

    public Map<String, Long> stats() {
        return Map.of("usagePosts", usagePosts.get(), "snapshots", (long) snapshots.size(),
                "lifecycleBatches", (long) eventBatches.size(), "events", (long) events.size(),
                "duplicateEvents", duplicateEvents.get(), "refused", refused.get(), "failed", failed.get(),
                "v1Pushes", v1Pushes.get(), "v2Pushes", v2Pushes.get(), "refusedBatches", refusedBatches.get());
    }

    /** Takes a body and says the status to answer. */
    private interface Handler {
        int handle(JsonNode body) throws IOException;
    }

    private void receive(HttpExchange exchange, Handler handler) throws IOException {
        try (exchange) {
            byte[] body = exchange.getRequestBody().readAllBytes();
            if (!"POST".equals(exchange.getRequestMethod())) {
                respond(exchange, 405, "{\"error\":\"POST only\"}");
                return;
            }
            String reason = refusal(exchange, body);
            if (reason != null) {
                refused.incrementAndGet();
                LOG.warning(() -> "refused " + exchange.getRequestURI().getPath() + ": " + reason);
                respond(exchange, 401, "{\"reason\":\"" + reason + "\"}");
                return;
            }
            if (failStatus != 200) {
                failed.incrementAndGet();
                respond(exchange, failStatus, "{\"error\":\"told to fail\"}");
                return;
            }
            int status = handler.handle(JSON.readTree(body));
            respond(exchange, status, status == 200 ? "{\"ok\":true}" : "{\"error\":\"event refused\"}");
        } catch (IOException | RuntimeException e) {
            respond(exchange, 400, "{\"error\":\"unreadable body\"}");
        }
    }

    /**
     * The buffer's own check, with the same reasons, for the push direction (a command signed for the buffer is
     * refused here); both formats are accepted, as a control plane moving to v2 would. The nonce is claimed only for
     * an authentic request.
     */
    private String refusal(HttpExchange exchange, byte[] body) {
        String nonce = exchange.getRequestHeaders().getFirst("x-nonce");
        String signature = exchange.getRequestHeaders().getFirst("x-signature");
        SignedRequest request = new SignedRequest(exchange.getRequestMethod(),
                CommandSignature.target(exchange.getRequestURI()), exchange.getRequestHeaders().getFirst("x-timestamp"),
                nonce, signature, body);
        Refusal refusal = CommandSignature.check(secrets, Direction.PUSH, request, System.currentTimeMillis() / 1000,
                TOLERANCE_SECONDS, true);
        if (refusal != null) {
            return refusal.reason();
        }
        long now = System.currentTimeMillis();
        nonces.values().removeIf(expires -> expires < now);
        if (nonces.putIfAbsent(nonce, now + NONCE_TTL_MILLIS) != null) {
            return Refusal.REPLAYED_NONCE.reason();
        }
        (CommandSignature.version(signature) == 2 ? v2Pushes : v1Pushes).incrementAndGet();
        return null;
    }

    private int usage(JsonNode snapshot) {
        usagePosts.incrementAndGet();
        String tenant = snapshot.path("tenantId").asText();
        String periodKey = snapshot.path("periodKey").asText();
        snapshots.put(tenant + "\n" + periodKey, snapshot); // upsert: the newest full snapshot of the period wins
        LOG.info(() -> "usage " + tenant + " " + periodKey + " " + snapshot.path("metrics"));
        return 200;
    }

    private int lifecycle(JsonNode body) {
        JsonNode list = body.path("events");
        for (JsonNode event : list) {
            if (refusedEvents.test(event)) {
                refusedBatches.incrementAndGet();
                return 422;
            }
        }
        eventBatches.add(list.size());
        for (JsonNode event : list) {
            if (events.putIfAbsent(event.path("dedupeKey").asText(), event) != null) {
                duplicateEvents.incrementAndGet();
            } else {
                LOG.info(() -> "lifecycle " + event.path("type").asText() + " " + event.path("tenantId").asText());
            }
        }
        return 200;
    }

    private void stats(HttpExchange exchange) throws IOException {
        try (exchange) {
            Map<String, Object> out = new LinkedHashMap<>(stats());
            out.put("snapshotList", List.copyOf(snapshots.values()));
            out.put("eventList", List.copyOf(events.values()));
            respond(exchange, 200, JSON.writeValueAsString(out));
        }
    }

    private void mode(HttpExchange exchange) throws IOException {
        try (exchange) {
            String query = exchange.getRequestURI().getQuery();
            if (query == null || !query.matches("status=[0-9]{3}")) {
                respond(exchange, 400, "{\"error\":\"use /mode?status=503 (or 200)\"}");
                return;
            }
            failStatus = Integer.parseInt(query.substring("status=".length()));
            respond(exchange, 200, "{\"status\":" + failStatus + "}");
        }
    }

    private static void respond(HttpExchange exchange, int status, String json) throws IOException {
        DemoOrigin.respond(exchange, status, json);
    }

    @Override
    public void close() {
        server.stop(0);
        ((ExecutorService) server.getExecutor()).shutdownNow();
    }
}
