package io.webhookbuffer.testsupport;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.LongSupplier;

import io.webhookbuffer.common.EventIds;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * A real HTTP origin for tests: records every batch POSTed to /internal/webhooks/batch, counts concurrent requests,
 * and answers per tenant as the test says (status, headers, body, latency). Default: 200 with no body.
 */
public final class FakeOrigin implements AutoCloseable {

    /** One batch as the origin saw it. */
    public record Batch(String tenantId, List<JsonNode> events, Map<String, List<String>> headers, byte[] body,
            long receivedAtMillis) {
    }

    /** How to answer a batch; with {@code streamBytes} &gt; 0, a chunked body of that many bytes instead of {@code body}. */
    public record Answer(int status, Map<String, String> headers, String body, long delayMillis, long streamBytes) {
        public Answer(int status, Map<String, String> headers, String body, long delayMillis) {
            this(status, headers, body, delayMillis, 0);
        }

        public static Answer ok() {
            return new Answer(200, Map.of(), "", 0);
        }

        public static Answer status(int status) {
            return new Answer(status, Map.of(), "", 0);
        }

        /** {@code status} with a body of {@code bytes} bytes of JSON-ish filler, written 64 KiB at a time. */
        public static Answer streamed(int status, long bytes) {
            return new Answer(status, Map.of(), "", 0, bytes);
        }
    }

    /** A streamed answer as this origin wrote it: the bytes the client took before the end or a write failure. */
    public record Streamed(long bytes, long written, boolean failed) {
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    static {
        // The JDK server leaves Nagle's algorithm on: with delayed ACKs every small response then waits ~40 ms.
        System.setProperty("sun.net.httpserver.nodelay", "true");
    }
    private final HttpServer server;
    private final List<Batch> batches = Collections.synchronizedList(new ArrayList<>());
    private final Map<String, Function<Batch, Answer>> behaviours = new ConcurrentHashMap<>();
    private volatile LongSupplier clock = System::currentTimeMillis;
    private final AtomicInteger concurrent = new AtomicInteger();
    private final AtomicInteger requests = new AtomicInteger();
    private final AtomicInteger maxConcurrent = new AtomicInteger();
    private final Map<String, AtomicInteger> concurrentByTenant = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> maxConcurrentByTenant = new ConcurrentHashMap<>();
    private final Map<String, Answer> configAnswers = new ConcurrentHashMap<>();
    private final AtomicInteger configRequests = new AtomicInteger();
    private final List<Streamed> streamed = new CopyOnWriteArrayList<>();

    public FakeOrigin() throws IOException {
        this("127.0.0.1");
    }

    /** An origin listening on {@code address} (any of 127.0.0.0/8 works on Linux), a free port. */
    public FakeOrigin(String address) throws IOException {
        server = HttpServer.create(new InetSocketAddress(address, 0), 64);
        server.setExecutor(Executors.newFixedThreadPool(32, r -> {
            Thread t = new Thread(r, "fake-origin");
            t.setDaemon(true);
            return t;
        }));
        server.createContext("/internal/webhooks/batch", this::handle);
        server.createContext("/internal/tenants/", this::config);
        server.start();
    }

    public String baseUrl() {
        return "http://" + server.getAddress().getAddress().getHostAddress() + ":" + server.getAddress().getPort();
    }

    public int port() {
        return server.getAddress().getPort();
    }

    /** How this origin answers the pull-through's {@code GET /internal/tenants/{id}/webhook-config} (default 404). */
    public void answerConfig(String tenantId, Answer answer) {
        configAnswers.put(tenantId, answer);
    }

    /** The tenant-config questions this origin received. */
    public int configRequests() {
        return configRequests.get();
    }

    /** Every streamed answer, in the order written. */
    public List<Streamed> streamed() {
        return List.copyOf(streamed);
    }

    /** The clock that stamps {@link Batch#receivedAtMillis} (the system clock unless a test sets the drainer's). */
    public void stampWith(LongSupplier clock) {
        this.clock = clock;
    }

    /** How this origin answers batches of one tenant from now on. */
    public void answer(String tenantId, Function<Batch, Answer> behaviour) {
        behaviours.put(tenantId, behaviour);
    }

    public List<Batch> batches(String tenantId) {
        synchronized (batches) {
            return batches.stream().filter(b -> tenantId.equals(b.tenantId())).toList();
        }
    }

    /** Every event of the tenant in the order the origin received them (duplicates included). */
    public List<JsonNode> events(String tenantId) {
        return batches(tenantId).stream().flatMap(b -> b.events().stream()).toList();
    }

    /** The {@code eventId} of every event of the tenant as delivered (the dedupe key), in the order received. */
    public List<String> eventIds(String tenantId) {
        return events(tenantId).stream().map(e -> e.get("eventId").asText()).toList();
    }

    /**
     * The same, as the sender chose them: an id bound to its body (docs/providers.md "Unsigned ids are bound to the body") split
     * at its last {@code :}, as an origin does; for tests about delivery rather than about keys.
     */
    public List<String> providerIds(String tenantId) {
        return events(tenantId).stream().map(FakeOrigin::providerId).toList();
    }

    /** One delivered event's id as the sender chose it: see {@link #providerIds}. */
    public static String providerId(JsonNode event) {
        return EventIds.providerId(event.get("eventId").asText());
    }

    public int maxConcurrent() {
        return maxConcurrent.get();
    }

    /** Most batches of one tenant this origin was handling at the same moment. */
    public int maxConcurrent(String tenantId) {
        AtomicInteger max = maxConcurrentByTenant.get(tenantId);
        return max == null ? 0 : max.get();
    }

    /** Every request this origin received on its batch path, whatever its method or body. */
    public int requests() {
        return requests.get();
    }

    private void handle(HttpExchange exchange) throws IOException {
        requests.incrementAndGet();
        int now = concurrent.incrementAndGet();
        maxConcurrent.accumulateAndGet(now, Math::max);
        AtomicInteger tenantConcurrent = null;
        try {
            byte[] body = exchange.getRequestBody().readAllBytes();
            JsonNode root = JSON.readTree(body);
            List<JsonNode> events = new ArrayList<>();
            root.get("events").forEach(events::add);
            String tenantId = events.isEmpty() ? "" : events.get(0).get("tenantId").asText();
            tenantConcurrent = concurrentByTenant.computeIfAbsent(tenantId, k -> new AtomicInteger());
            maxConcurrentByTenant.computeIfAbsent(tenantId, k -> new AtomicInteger())
                    .accumulateAndGet(tenantConcurrent.incrementAndGet(), Math::max);
            Batch batch = new Batch(tenantId, events, Map.copyOf(exchange.getRequestHeaders()), body,
                    clock.getAsLong());
            batches.add(batch);
            Answer answer = behaviours.getOrDefault(tenantId, b -> Answer.ok()).apply(batch);
            if (answer.delayMillis() > 0) {
                Thread.sleep(answer.delayMillis()); // the origin being slow is the behaviour under test
            }
            write(exchange, answer);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            if (tenantConcurrent != null) {
                tenantConcurrent.decrementAndGet();
            }
            concurrent.decrementAndGet();
            exchange.close();
        }
    }

    private void config(HttpExchange exchange) throws IOException {
        configRequests.incrementAndGet();
        try {
            String[] parts = exchange.getRequestURI().getPath().split("/");
            String tenantId = parts.length > 3 ? parts[3] : "";
            write(exchange, configAnswers.getOrDefault(tenantId, Answer.status(404)));
        } finally {
            exchange.close();
        }
    }

    private void write(HttpExchange exchange, Answer answer) throws IOException {
        answer.headers().forEach((k, v) -> exchange.getResponseHeaders().add(k, v));
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        if (answer.streamBytes() > 0) {
            stream(exchange, answer);
            return;
        }
        byte[] out = answer.body().getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(answer.status(), out.length == 0 ? -1 : out.length);
        if (out.length > 0) {
            try (OutputStream os = exchange.getResponseBody()) {
                os.write(out);
            }
        }
    }

    /** A chunked body of answer.streamBytes() bytes; a client that stops reading makes the write fail. */
    private void stream(HttpExchange exchange, Answer answer) throws IOException {
        byte[] chunk = new byte[64 * 1024];
        Arrays.fill(chunk, (byte) 'x');
        long written = 0;
        boolean failed = false;
        exchange.sendResponseHeaders(answer.status(), 0);
        try (OutputStream os = exchange.getResponseBody()) {
            while (written < answer.streamBytes()) {
                int n = (int) Math.min(chunk.length, answer.streamBytes() - written);
                os.write(chunk, 0, n);
                written += n;
            }
        } catch (IOException e) {
            failed = true;
        }
        streamed.add(new Streamed(answer.streamBytes(), written, failed));
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
