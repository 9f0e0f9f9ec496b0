package io.webhookbuffer.testsupport;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * A page of a headless Chromium over the DevTools protocol (JSON over a WebSocket: each command an id, its answer
 * the same id), for {@link HeadlessChromium#signIn}. Chromium started with {@code --remote-debugging-port=0} writes
 * the port it chose to {@code DevToolsActivePort} in its profile directory; the page target is found at
 * {@code /json/list}. Evaluating in the page works under the page's Content-Security-Policy: DevTools is not the page.
 */
final class DevTools implements WebSocket.Listener, AutoCloseable {

    private static final Duration PATIENCE = Duration.ofSeconds(30);
    private static final ObjectMapper JSON = new ObjectMapper();
    private final Map<Integer, CompletableFuture<JsonNode>> pending = new ConcurrentHashMap<>();
    private final AtomicInteger ids = new AtomicInteger();
    private final StringBuilder partial = new StringBuilder();
    private WebSocket socket;

    private DevTools() {
    }

    static DevTools open(Path profile) throws IOException, InterruptedException {
        Path portFile = profile.resolve("DevToolsActivePort");
        await().atMost(PATIENCE).pollInterval(Duration.ofMillis(100)).ignoreExceptions()
                .until(() -> !Files.readAllLines(portFile).get(0).isBlank());
        int port = Integer.parseInt(Files.readAllLines(portFile, StandardCharsets.UTF_8).get(0).strip());
        HttpClient http = HttpClient.newHttpClient();
        String[] target = new String[1];
        await().atMost(PATIENCE).pollInterval(Duration.ofMillis(100)).ignoreExceptions().until(() -> {
            String list = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/json/list"))
                    .build(), HttpResponse.BodyHandlers.ofString()).body();
            for (JsonNode t : JSON.readTree(list)) {
                if ("page".equals(t.path("type").asText())) {
                    target[0] = t.get("webSocketDebuggerUrl").asText();
                }
            }
            return target[0] != null;
        });
        DevTools devTools = new DevTools();
        try {
            devTools.socket = http.newWebSocketBuilder().buildAsync(URI.create(target[0]), devTools)
                    .get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new IOException("could not reach Chromium's DevTools at " + target[0], e);
        }
        return devTools;
    }

    /** Sends a command and waits for its result; a protocol error fails. */
    JsonNode call(String method, Map<String, Object> params) throws IOException, InterruptedException {
        int id = ids.incrementAndGet();
        CompletableFuture<JsonNode> answer = new CompletableFuture<>();
        pending.put(id, answer);
        Map<String, Object> message = new LinkedHashMap<>();
        message.put("id", id);
        message.put("method", method);
        message.put("params", params);
        try {
            socket.sendText(JSON.writeValueAsString(message), true).get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
            JsonNode reply = answer.get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
            if (reply.has("error")) {
                throw new IOException(method + ": " + reply.get("error"));
            }
            return reply.get("result");
        } catch (ExecutionException | TimeoutException e) {
            throw new IOException(method + " was not answered", e);
        } finally {
            pending.remove(id);
        }
    }

    /** The value of a JavaScript expression in the page. */
    JsonNode evaluate(String expression) throws IOException, InterruptedException {
        return call("Runtime.evaluate", Map.of("expression", expression, "returnByValue", true))
                .at("/result/value");
    }

    /** Waits until a JavaScript expression is true in the page (a page that is still loading counts as false). */
    void until(String expression) {
        await().atMost(PATIENCE).pollInterval(Duration.ofMillis(100)).ignoreExceptions()
                .until(() -> evaluate("Boolean(" + expression + ")").asBoolean());
    }

    @Override
    public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
        partial.append(data);
        if (last) {
            try {
                JsonNode message = JSON.readTree(partial.toString());
                CompletableFuture<JsonNode> answer = message.has("id") ? pending.get(message.get("id").asInt()) : null;
                if (answer != null) {
                    answer.complete(message);
                }
            } catch (IOException e) {
                pending.values().forEach(f -> f.completeExceptionally(e));
            }
            partial.setLength(0);
        }
        webSocket.request(1);
        return null;
    }

    @Override
    public void close() {
        if (socket != null) {
            socket.abort();
        }
    }
}
