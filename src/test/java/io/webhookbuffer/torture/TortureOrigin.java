package io.webhookbuffer.torture;

import java.io.IOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.LongAdder;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * The origin of the torture suite: a real HTTP server on one port for the whole run that can refuse connections (its
 * listener closed, open connections dropped), answer 503, or answer late. Whatever its mode, a batch that holds the
 * 500-poison id is answered 500 (as an origin that crashes on that event) and one that holds the 4xx-poison id 422;
 * every other batch is answered 200 while it is up, so a drainer that isolates a poison sees its neighbours accepted.
 *
 * <p>It records the (tenant, event id) of every batch it answered 2xx: what the loss check counts as "at the
 * origin". A slow answer is a 503 sent after {@code slowAnswerMillis}, beyond the buffer's request timeout, so
 * nothing the buffer gave up on counts as delivered: each such event must come again.
 */
final class TortureOrigin implements AutoCloseable {

    enum Mode {
        UP, REFUSING, UNAVAILABLE, SLOW
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    static {
        // The JDK server leaves Nagle's algorithm on: with delayed ACKs every small response then waits ~40 ms.
        System.setProperty("sun.net.httpserver.nodelay", "true");
    }

    private final int port;
    private final String token;
    private final long slowAnswerMillis;
    private final String poison500;
    private final String poison4xx;
    private final ExecutorService executor = Executors.newFixedThreadPool(32, r -> {
        Thread t = new Thread(r, "torture-origin");
        t.setDaemon(true);
        return t;
    });
    /** tenant TAB eventId of every event in a batch answered 2xx. */
    private final Set<String> accepted = ConcurrentHashMap.newKeySet();
    /** When batches were answered 2xx (epoch ms), for "delivery resumed after". */
    private final ConcurrentSkipListSet<Long> acceptedAt = new ConcurrentSkipListSet<>();
    private final Map<Integer, LongAdder> answered = new ConcurrentHashMap<>();
    private final LongAdder eventsAccepted = new LongAdder();
    private volatile Mode mode = Mode.UP;
    // @protectedby: this
    private HttpServer server;

    TortureOrigin(String token, long slowAnswerMillis, String poison500, String poison4xx) throws IOException {
        this.token = token;
        this.slowAnswerMillis = slowAnswerMillis;
        this.poison500 = poison500;
        this.poison4xx = poison4xx;
        try (ServerSocket probe = new ServerSocket(0)) {
            this.port = probe.getLocalPort();
        }
        listen();
    }

    String baseUrl() {
        return "http://127.0.0.1:" + port;
    }

    /** Closes the listener and every open connection: the buffer's connects are refused until {@link #mode}. */
    synchronized void refuseConnections() {
        mode = Mode.REFUSING;
        if (server != null) {
            server.stop(0);
            server = null;
        }
    }

    /** Listens again (same port) if it was refusing, and answers as {@code next} from now on. */
    synchronized void mode(Mode next) throws IOException {
        if (next == Mode.REFUSING) {
            refuseConnections();
            return;
        }
        if (server == null) {
            listen();
        }
        mode = next;
    }

    Set<String> accepted() {
        return Set.copyOf(accepted);
    }

    long eventsAccepted() {
        return eventsAccepted.sum();
    }

    /** The first time at or after {@code millis} that a batch was answered 2xx, or -1. */
    long firstAcceptanceAtOrAfter(long millis) {
        Long t = acceptedAt.ceiling(millis);
        return t == null ? -1 : t;
    }

    /** Batches answered, by status. */
    Map<Integer, Long> answers() {
        Map<Integer, Long> out = new TreeMap<>();
        answered.forEach((status, n) -> out.put(status, n.sum()));
        return out;
    }

    static String key(String tenant, String eventId) {
        return tenant + "\t" + eventId;
    }

    private void listen() throws IOException {
        long deadline = System.currentTimeMillis() + 10_000;
        while (true) {
            try {
                HttpServer s = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 128);
                s.setExecutor(executor);
                s.createContext("/internal/webhooks/batch", this::handle);
                s.start();
                server = s;
                return;
            } catch (BindException e) {
                if (System.currentTimeMillis() > deadline) {
                    throw e;
                }
                sleep(100); // the port is still held by the listener just closed
            }
        }
    }

    private void handle(HttpExchange exchange) throws IOException {
        try {
            JsonNode root = JSON.readTree(exchange.getRequestBody().readAllBytes());
            List<String> keys = new ArrayList<>();
            List<String> ids = new ArrayList<>();
            for (JsonNode e : root.path("events")) {
                ids.add(e.path("eventId").asText());
                keys.add(key(e.path("tenantId").asText(), e.path("eventId").asText()));
            }
            int status = status(exchange.getRequestHeaders().getFirst("Authorization"), ids);
            if (status == 503 && mode == Mode.SLOW) {
                sleep(slowAnswerMillis); // answered after the buffer's request timeout
            }
            if (status == 200) {
                accepted.addAll(keys);
                eventsAccepted.add(keys.size());
                acceptedAt.add(System.currentTimeMillis());
            }
            answered.computeIfAbsent(status, s -> new LongAdder()).increment();
            exchange.sendResponseHeaders(status, -1);
        } catch (IOException e) {
            // the buffer gave up on the answer (its request timeout) and closed the connection
        } finally {
            exchange.close();
        }
    }

    private int status(String authorization, List<String> ids) {
        if (!("Bearer " + token).equals(authorization)) {
            return 401;
        }
        if (ids.contains(poison500)) {
            return 500;
        }
        if (ids.contains(poison4xx)) {
            return 422;
        }
        return mode == Mode.UP ? 200 : 503;
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public synchronized void close() {
        if (server != null) {
            server.stop(0);
        }
        executor.shutdownNow();
    }
}
