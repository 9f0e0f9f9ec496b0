package io.webhookbuffer.delivery;

import java.io.IOException;
import java.net.ConnectException;
import java.net.UnknownHostException;
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
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.core.Vertx;
import io.webhookbuffer.common.BufferClock;
import io.webhookbuffer.common.Hmac;
import io.webhookbuffer.common.OriginConfig;
import io.webhookbuffer.common.OriginCredentials;
import io.webhookbuffer.common.UntrustedText;
import io.webhookbuffer.common.Utf8;
import io.webhookbuffer.egress.EgressAnswer;
import io.webhookbuffer.egress.EgressClient;
import io.webhookbuffer.egress.OriginTrust;
import io.webhookbuffer.egress.RefusedAddress;
import io.webhookbuffer.queue.QueuedEvent;
import io.webhookbuffer.trace.BatchTrace;
import io.webhookbuffer.trace.Tracing;

/**
 * POSTs one tenant's batch to {@code {origin}/internal/webhooks/batch} as the contract says: bearer token, JSON
 * {@code {"events": [...]}}, {@code rawBody} as text when the bytes are valid UTF-8 else {@code rawBodyBase64}, and
 * when a signing secret is set, {@code X-Buffer-Timestamp} and {@code X-Buffer-Signature} = hex
 * HMAC-SHA256(secret, "{timestamp}.{body}"). Token and secret are the destination's: the global ones for the global
 * origin, the tenant's own for a tenant's own origin. With tracing on, the request carries its span's W3C
 * {@code traceparent} and each event its own ingest span's ({@code "traceparent"}, docs/delivery.md).
 */
@ApplicationScoped
public class OriginClient {

    public static final String BATCH_PATH = "/internal/webhooks/batch";

    private final EgressClient client;
    private final ObjectMapper json;
    private final OriginConfig origin;
    private final DeliveryConfig config;
    private final Tracing tracing;
    private final BufferClock clock;

    public OriginClient(Vertx vertx, ObjectMapper json, OriginConfig origin, DeliveryConfig config, OriginTrust trust,
            Tracing tracing, BufferClock clock) {
        this.tracing = tracing;
        this.clock = clock;
        // A redirect is an answer, never a delivery (EgressClient follows none): following a 303 would send the batch
        // (and the token) as a GET elsewhere and take that 200 for the origin's. A 3xx is retried like any answer but
        // a 2xx. Every connection is checked against the origin trust rules on the address it is made to. The pool
        // (per origin) fits both lanes (the bulkhead and the slow lane, SlowLane): a smaller one would queue a fast
        // tenant's batch behind slow ones to the same origin, which the slow lane exists to prevent.
        this.client = new EgressClient(vertx.getDelegate(), new HttpClientOptions()
                .setMaxPoolSize(Math.max(4, 2 * config.maxConcurrent())).setKeepAlive(true), trust,
                trust.maxAnswerBytes());
        this.json = json;
        this.origin = origin;
        this.config = config;
    }

    /** The global origin's credentials ({@code buffer.origin.token}, {@code buffer.delivery.signing-secret}). */
    public OriginCredentials globalCredentials() {
        return OriginCredentials.of(origin.token(), config.signingSecret());
    }

    /**
     * Never fails: a network error or timeout becomes {@link OriginResponse#noAnswer}. {@code credentials} are the
     * destination's own ({@link OriginCredentialChoice}): a token present becomes {@code Authorization}, a signing
     * secret present signs the batch; an absent one sends no header.
     */
    public Uni<OriginResponse> send(String baseUrl, OriginCredentials credentials, String tenantId, String provider,
            List<QueuedEvent> batch) {
        byte[] body = batchBody(tenantId, provider, batch);
        MultiMap headers = MultiMap.caseInsensitiveMultiMap().add("Content-Type", "application/json");
        BatchTrace trace = tracing.delivery(tenantId, provider, batch, QueuedEvent::traceParent);
        if (trace != BatchTrace.OFF) {
            headers.add(Tracing.TRACEPARENT, trace.traceParent());
        }
        if (credentials.token() != null) {
            headers.add("Authorization", "Bearer " + credentials.token());
        }
        if (credentials.signingSecret() != null) {
            String ts = Long.toString(clock.realMillis() / 1000);
            headers.add("X-Buffer-Timestamp", ts);
            byte[] mac = Hmac.hmacSha256(credentials.signingSecret(), (ts + ".").getBytes(StandardCharsets.US_ASCII),
                    body);
            headers.add("X-Buffer-Signature", HexFormat.of().formatHex(mac));
        }
        // The client bounds the whole exchange, so an origin that trickles bytes cannot hold a batch (and its tenant's
        // lease) open; this bounds it once more, should the client's own timer not fire.
        long timeout = config.requestTimeout().toMillis();
        Uni<OriginResponse> answered = Uni.createFrom().completionStage(() -> client.send(HttpMethod.POST,
                baseUrl + BATCH_PATH, headers, Buffer.buffer(body), timeout).toCompletionStage())
                .map(this::toResponse)
                .ifNoItem().after(config.requestTimeout().plusMillis(500))
                .recoverWithItem(() -> OriginResponse.noAnswer("no complete answer within " + config.requestTimeout()))
                .onFailure().recoverWithItem(OriginClient::failed);
        return trace == BatchTrace.OFF ? answered : answered.map(response -> {
            trace.delivered(response.status(), outcome(response), response.success());
            return response.traced(trace); // the drain logs what it makes of the answer with the span's ids
        });
    }

    /** What a batch's answer means, as its span says ({@code buffer.outcome}). */
    static String outcome(OriginResponse response) {
        if (response.success()) {
            return response.rejected().isEmpty() ? "delivered" : "delivered_some_rejected";
        }
        if (response.status() == 0) {
            return response.unreachable() ? "unreachable" : "no_answer";
        }
        return response.refused() ? "refused" : "retry";
    }

    /**
     * A connection that was never made (refused, a name that does not resolve, an address the trust rules refuse)
     * never reached the origin; anything else (a reset, a timeout) may have.
     */
    static OriginResponse failed(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof RefusedAddress) {
                return OriginResponse.unreachable("origin address refused: " + t.getMessage());
            }
            if (t instanceof ConnectException || t instanceof UnknownHostException) {
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
            if (e.traceParent() != null) {
                event.put(Tracing.TRACEPARENT, e.traceParent()); // the event's own trace, for the origin to continue
            }
            events.add(event);
        }
        try {
            return json.writeValueAsBytes(Map.of("events", events));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("could not serialise a batch", e);
        }
    }

    /**
     * An answer cut at {@code OriginTrust.MAX_ANSWER_BYTES} (64 KiB) is judged by its status only: a cut 2xx accepts the
     * whole batch (its {@code rejected} list is not read), a cut refusal keeps the first 200 characters.
     */
    private OriginResponse toResponse(EgressAnswer answer) {
        int status = answer.status();
        long retryAfter = parseRetryAfter(answer.header("Retry-After"));
        boolean success = status >= 200 && status < 300;
        Map<String, String> rejected = success && !answer.cut() ? rejected(answer.body()) : Map.of();
        String error = success ? null : "HTTP " + status + snippet(answer.body(), answer.cut());
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
                    out.put(r.get("eventId").asText(), UntrustedText.cap(reason, UntrustedText.ORIGIN_TEXT_CAP));
                }
            }
            return out;
        } catch (IOException | RuntimeException e) {
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

    /** The answer's first 200 characters, cleaned ({@link UntrustedText}); never more of an origin's text is kept. */
    static String snippet(Buffer body, boolean cut) {
        String more = cut ? " (answer longer than 64 KiB: not read further)" : "";
        if (body == null || body.length() == 0) {
            return more;
        }
        int bytes = Math.min(body.length(), 4 * UntrustedText.ORIGIN_TEXT_CAP + 4);
        String text = new String(body.getBytes(0, bytes), StandardCharsets.UTF_8);
        return ": " + UntrustedText.cap(text, UntrustedText.ORIGIN_TEXT_CAP) + more;
    }
}
