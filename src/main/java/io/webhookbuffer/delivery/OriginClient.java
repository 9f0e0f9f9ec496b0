package io.webhookbuffer.delivery;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClientOptions;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.core.buffer.Buffer;
import io.vertx.mutiny.ext.web.client.HttpResponse;
import io.vertx.mutiny.ext.web.client.WebClient;
import io.webhookbuffer.common.Hmac;
import io.webhookbuffer.common.OriginConfig;
import io.webhookbuffer.common.ShownText;
import io.webhookbuffer.common.Utf8;
import io.webhookbuffer.queue.QueuedEvent;

/**
 * POSTs one tenant's batch to {@code {origin}/internal/webhooks/batch} as the contract says: bearer token, JSON
 * {@code {"events": [...]}}, {@code rawBody} as text when the bytes are valid UTF-8 else {@code rawBodyBase64}, and
 * when a signing secret is set, {@code X-Buffer-Timestamp} and {@code X-Buffer-Signature} = hex
 * HMAC-SHA256(secret, "{timestamp}.{body}").
 */
@ApplicationScoped
public class OriginClient {

    public static final String BATCH_PATH = "/internal/webhooks/batch";

    private final WebClient client;
    private final ObjectMapper json;
    private final OriginConfig origin;
    private final DeliveryConfig config;

    public OriginClient(Vertx vertx, ObjectMapper json, OriginConfig origin, DeliveryConfig config) {
        this.client = WebClient.create(vertx, new WebClientOptions().setMaxPoolSize(Math.max(4, config.maxConcurrent()))
                .setKeepAlive(true).setUserAgent("webhook-buffer")
                // A redirect is an answer, never a delivery: following a 303 would send the batch (and the token) as
                // a GET elsewhere and take that 200 for the origin's. A 3xx is retried like any answer but a 2xx.
                .setFollowRedirects(false));
        this.json = json;
        this.origin = origin;
        this.config = config;
    }

    /** Never fails: a network error or timeout becomes {@link OriginResponse#noAnswer}. */
    public Uni<OriginResponse> send(String baseUrl, String tenantId, String provider, List<QueuedEvent> batch) {
        byte[] body = batchBody(tenantId, provider, batch);
        var request = client.postAbs(baseUrl + BATCH_PATH)
                .timeout(config.requestTimeout().toMillis())
                .putHeader("Content-Type", "application/json");
        origin.token().ifPresent(token -> request.putHeader("Authorization", "Bearer " + token));
        config.signingSecret().filter(s -> !s.isBlank()).ifPresent(secret -> {
            String ts = Long.toString(System.currentTimeMillis() / 1000);
            request.putHeader("X-Buffer-Timestamp", ts);
            byte[] mac = Hmac.hmacSha256(secret, (ts + ".").getBytes(StandardCharsets.US_ASCII), body);
            request.putHeader("X-Buffer-Signature", HexFormat.of().formatHex(mac));
        });
        // The client's timeout fires only when no byte arrives for that long; this one bounds the whole exchange,
        // so an origin that trickles bytes cannot hold a batch (and its tenant's lease) open.
        return request.sendBuffer(Buffer.buffer(body))
                .map(this::toResponse)
                .ifNoItem().after(config.requestTimeout().plusMillis(500))
                .recoverWithItem(() -> OriginResponse.noAnswer("no complete answer within " + config.requestTimeout()))
                .onFailure().recoverWithItem(OriginClient::failed);
    }

    /** A connect failure never reached the origin; anything else (a reset, a timeout) may have. */
    static OriginResponse failed(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof java.net.ConnectException) {
                return OriginResponse.unreachable(failure.toString());
            }
        }
        return OriginResponse.noAnswer(failure.toString());
    }

    byte[] batchBody(String tenantId, String provider, List<QueuedEvent> batch) {
        List<Map<String, Object>> events = new ArrayList<>(batch.size());
        for (QueuedEvent e : batch) {
            Map<String, Object> event = new LinkedHashMap<>();
            event.put("eventId", e.eventId());
            event.put("tenantId", tenantId);
            event.put("provider", provider);
            event.put("receivedAt", e.receivedAt().toInstant().toEpochMilli());
            event.put("contentType", e.contentType());
            Utf8.putRawBody(event, e.body());
            event.put("headers", new JsonObject(e.headersJson()).getMap());
            event.put("attempts", e.attempts() + 1);
            events.add(event);
        }
        try {
            return json.writeValueAsBytes(Map.of("events", events));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("could not serialise a batch", e);
        }
    }

    private OriginResponse toResponse(HttpResponse<Buffer> response) {
        int status = response.statusCode();
        long retryAfter = parseRetryAfter(response.getHeader("Retry-After"));
        Map<String, String> rejected = status >= 200 && status < 300 ? rejected(response.body()) : Map.of();
        String error = status >= 200 && status < 300 ? null : "HTTP " + status + snippet(response.body());
        return new OriginResponse(status, retryAfter, rejected, error);
    }

    /** {@code {"rejected": [{"eventId", "reason"}]}} in a 2xx answer; anything else means none rejected. */
    private Map<String, String> rejected(Buffer body) {
        if (body == null || body.length() == 0) {
            return Map.of();
        }
        try {
            JsonNode node = json.readTree(body.getBytes()).get("rejected");
            if (node == null || !node.isArray()) {
                return Map.of();
            }
            Map<String, String> out = new HashMap<>();
            for (JsonNode r : node) {
                if (r.hasNonNull("eventId")) {
                    String reason = r.hasNonNull("reason") ? r.get("reason").asText() : "rejected";
                    out.put(r.get("eventId").asText(), ShownText.cap(reason, ShownText.ORIGIN_TEXT_CAP));
                }
            }
            return out;
        } catch (java.io.IOException | RuntimeException e) {
            return Map.of();
        }
    }

    /** Seconds (the only form origins send in practice); an HTTP date or garbage counts as absent. */
    static long parseRetryAfter(String header) {
        if (header == null) {
            return 0;
        }
        try {
            long seconds = Long.parseLong(header.strip());
            return seconds <= 0 ? 0 : Math.min(seconds, 86_400) * 1000;
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** The answer's first 200 characters, cleaned ({@link ShownText}); never more of an origin's text is kept. */
    static String snippet(Buffer body) {
        if (body == null || body.length() == 0) {
            return "";
        }
        int bytes = Math.min(body.length(), 4 * ShownText.ORIGIN_TEXT_CAP + 4);
        String text = new String(body.getBytes(0, bytes), StandardCharsets.UTF_8);
        return ": " + ShownText.cap(text, ShownText.ORIGIN_TEXT_CAP);
    }
}
