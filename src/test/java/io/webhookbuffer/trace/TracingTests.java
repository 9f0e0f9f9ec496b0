package io.webhookbuffer.trace;

import static io.webhookbuffer.testsupport.TestTenants.tenant;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.opentelemetry.proto.trace.v1.Span.SpanKind;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.webhookbuffer.fairness.NoisyNeighbourProfile;
import io.webhookbuffer.metrics.MetricNames;
import io.webhookbuffer.testsupport.Events;
import io.webhookbuffer.testsupport.FakeOrigin;
import io.webhookbuffer.testsupport.FakeOriginResource;
import io.webhookbuffer.testsupport.InjectFakeOrigin;
import io.webhookbuffer.testsupport.InjectOtlpReceiver;
import io.webhookbuffer.testsupport.OtlpReceiver;
import io.webhookbuffer.testsupport.OtlpReceiver.Received;
import io.webhookbuffer.testsupport.Scrape;
import io.webhookbuffer.testsupport.Signed;
import io.webhookbuffer.testsupport.TestTenants;
import io.webhookbuffer.testsupport.CapturedLog;

/**
 * One event's trace, from the real app to a real OTLP/HTTP receiver and a real origin (docs/operations.md "Tracing"):
 * its ingest, commit and delivery spans with their links and attributes, the trace context the origin gets, the
 * sender's context used only when its tenant trusts it, the ids in the JSON log, and no secret or body in any span.
 */
@QuarkusTest
@TestProfile(NoisyNeighbourProfile.class)
class TracingTests {

    private static final Duration PATIENCE = Duration.ofSeconds(20);
    private static final Path LOG = CapturedLog.FILE;
    /** A sender's context: sampled, with ids no span of ours has. */
    private static final String SENDER_TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String SENDER_SPAN = "00f067aa0ba902b7";
    private static final String SENDER_TRACEPARENT = "00-" + SENDER_TRACE + "-" + SENDER_SPAN + "-01";
    /** The context forged requests carry: no span may ever name it. */
    private static final String FORGED_TRACE = "0af7651916cd43dd8448eb211c80319c";
    private static final String FORGED_TRACEPARENT = "00-" + FORGED_TRACE + "-b7ad6b7169203331-01";
    private static final int FORGED = 20;
    private static final String INGEST_TOTAL = MetricNames.INGEST.prometheus();

    @InjectOtlpReceiver
    OtlpReceiver receiver;

    @InjectFakeOrigin
    FakeOrigin origin;

    @Test
    void oneEventsIngestCommitAndDeliverySpansArriveLinkedAndTheOriginGetsEachContext() throws IOException {
        String t = tenant().provision();
        String body = "{\"id\":\"traced-1\",\"card\":\"body-only-text-4242\"}";
        AtomicInteger tries = new AtomicInteger();
        // The first batch is answered 503, so the delivery path logs a line about it (with the span's ids).
        origin.answer(t, batch -> tries.getAndIncrement() == 0 ? FakeOrigin.Answer.status(503) : FakeOrigin.Answer.ok());
        Signed.webhook(TestTenants.DEFAULT_SECRET, body).header("X-Event-ID", "traced-1")
                .header("traceparent", SENDER_TRACEPARENT).post("/webhook/" + t).then().statusCode(202);

        await().atMost(PATIENCE).until(() -> origin.batches(t).size() >= 2);
        Received ingest = awaitSpan(Tracing.INGEST, t);
        List<Received> deliveries = awaitSpans(Tracing.DELIVER, t, 2);
        Received commit = await().atMost(PATIENCE).until(() -> commitLinking(ingest), c -> c != null);

        // The ingest span: a server span of its own trace (the tenant does not trust its sender's), which links to
        // the sender's context, with the tenant, provider, outcome and event id.
        assertEquals(SpanKind.SPAN_KIND_SERVER, ingest.kind());
        assertEquals("", ingest.parentSpanId(), "untrusted: a new trace, no parent");
        assertNotEquals(SENDER_TRACE, ingest.traceId());
        assertEquals(List.of(SENDER_TRACE + "/" + SENDER_SPAN + "/sender"), ingest.links().stream()
                .map(l -> l.traceId() + "/" + l.spanId() + "/" + l.attributes().get("buffer.link")).toList());
        assertEquals("generic", ingest.attributes().get("buffer.provider"));
        assertEquals("buffered", ingest.attributes().get("buffer.outcome"));
        assertEquals("202", ingest.attributes().get("http.response.status_code"));
        String eventId = ingest.attributes().get("buffer.event_id");
        assertNotNull(eventId);
        assertTrue(eventId.startsWith("traced-1:"), "the dedupe key the origin gets: " + eventId);

        // The group commit: its own span, linked to the ingest span it stored.
        assertEquals("committed", commit.attributes().get("buffer.outcome"));
        assertTrue(Long.parseLong(commit.attributes().get("buffer.batch.stored")) >= 1);

        // Each batch: a client span linked to the ingest span of its event; the request carries its context, and
        // the event its own (the ingest span's), so the origin can continue either trace.
        String eventContext = "00-" + ingest.traceId() + "-" + ingest.spanId() + "-01";
        for (int i = 0; i < 2; i++) {
            Received delivery = deliveries.get(i);
            FakeOrigin.Batch batch = origin.batches(t).get(i);
            assertEquals(SpanKind.SPAN_KIND_CLIENT, delivery.kind());
            assertEquals(List.of(ingest.traceId() + "/" + ingest.spanId()),
                    delivery.links().stream().map(l -> l.traceId() + "/" + l.spanId()).toList());
            assertEquals("00-" + delivery.traceId() + "-" + delivery.spanId() + "-01", header(batch, "traceparent"));
            assertEquals(eventContext, batch.events().get(0).get("traceparent").asText());
            assertEquals(eventId, batch.events().get(0).get("eventId").asText());
        }
        assertEquals("retry", deliveries.get(0).attributes().get("buffer.outcome"));
        assertEquals("503", deliveries.get(0).attributes().get("http.response.status_code"));
        assertEquals("delivered", deliveries.get(1).attributes().get("buffer.outcome"));
        assertEquals("200", deliveries.get(1).attributes().get("http.response.status_code"));

        // The JSON log: the ingest answer's line carries the ingest span's ids, the failed batch's line its span's.
        assertTrue(logged(ingest.traceId(), ingest.spanId(), "POST /webhook/" + t + " -> 202"));
        assertTrue(logged(deliveries.get(0).traceId(), deliveries.get(0).spanId(), "tenant " + t + ": batch of 1"));

        assertNoSecretOrBody(t, body);
    }

    @Test
    void aTrustedSendersTraceparentIsTheParentOfItsIngestSpan() {
        String t = tenant().trustTraceContext(true).provision();
        Signed.webhook(TestTenants.DEFAULT_SECRET, Events.body("trusted-1")).header("X-Event-ID", "trusted-1")
                .header("traceparent", SENDER_TRACEPARENT).post("/webhook/" + t).then().statusCode(202);
        Received ingest = awaitSpan(Tracing.INGEST, t);
        assertEquals(SENDER_TRACE, ingest.traceId(), "the sender's trace continues");
        assertEquals(SENDER_SPAN, ingest.parentSpanId());
        assertTrue(ingest.links().isEmpty());
        await().atMost(PATIENCE).until(() -> !origin.events(t).isEmpty());
        assertEquals("00-" + SENDER_TRACE + "-" + ingest.spanId() + "-01",
                origin.events(t).get(0).get("traceparent").asText());
    }

    /**
     * A request that has not proved itself costs no span and no trace work (docs/operations.md "Tracing"): a burst of
     * forged signatures (each with a sender's traceparent), an unsigned request, an unknown tenant and an oversized
     * body, then one signed event. Of this tenant's spans exactly the event's arrive, no span anywhere links to or
     * continues the forgers' trace, and the refusals are counted in the metrics as before.
     */
    @Test
    void onlyARequestWhoseSignatureVerifiedMakesASpan() {
        String t = tenant().maxBodyBytes(512).provision();
        Scrape before = Scrape.now();
        for (int i = 0; i < FORGED; i++) {
            Signed.webhook("not-the-secret", Events.body("forged-" + i)).header("X-Event-ID", "forged-" + i)
                    .header("traceparent", FORGED_TRACEPARENT).post("/webhook/" + t).then().statusCode(401);
        }
        given().contentType("application/json").body("{}").header("traceparent", FORGED_TRACEPARENT)
                .post("/webhook/" + t).then().statusCode(401);
        Signed.webhook(TestTenants.DEFAULT_SECRET, "{}").header("traceparent", FORGED_TRACEPARENT)
                .post("/webhook/nobody-" + t).then().statusCode(404);
        Signed.webhook(TestTenants.DEFAULT_SECRET, "x".repeat(600)).header("traceparent", FORGED_TRACEPARENT)
                .post("/webhook/" + t).then().statusCode(413);
        Signed.webhook(TestTenants.DEFAULT_SECRET, Events.body("genuine-1")).header("X-Event-ID", "genuine-1")
                .post("/webhook/" + t).then().statusCode(202);

        Received ingest = awaitSpan(Tracing.INGEST, t);
        Received delivery = awaitSpan(Tracing.DELIVER, t);
        // One queue, first in, first out: every span ended before the delivery's has been exported with it or before.
        assertEquals(Set.of(ingest.spanId() + "/buffered", delivery.spanId() + "/delivered"), Set.copyOf(receiver
                .spans().stream().filter(s -> t.equals(s.attributes().get("buffer.tenant")))
                .map(s -> s.spanId() + "/" + s.attributes().get("buffer.outcome")).toList()));
        assertEquals(2, receiver.spans().stream().filter(s -> t.equals(s.attributes().get("buffer.tenant"))).count());
        assertTrue(receiver.spans().stream().noneMatch(s -> FORGED_TRACE.equals(s.traceId())
                || s.links().stream().anyMatch(l -> FORGED_TRACE.equals(l.traceId()))), "no span for a forger");
        Scrape after = Scrape.now();
        assertEquals(FORGED + 1, after.count(INGEST_TOTAL, "outcome", "bad_signature")
                - before.count(INGEST_TOTAL, "outcome", "bad_signature"), "the refusals are counted");
        assertEquals(1, after.count(INGEST_TOTAL, "outcome", "too_large") - before.count(INGEST_TOTAL, "outcome",
                "too_large"));
    }

    /**
     * A dead letter keeps its event's trace: moved to dead_letters and replayed, the event's delivery still links to
     * its ingest span, and the origin gets the event's own traceparent again.
     */
    @Test
    void aReplayedDeadLetterIsDeliveredInItsOriginalTrace() {
        String t = tenant().provision();
        AtomicInteger tries = new AtomicInteger();
        origin.answer(t, batch -> tries.getAndIncrement() == 0 ? FakeOrigin.Answer.status(400) : FakeOrigin.Answer.ok());
        Signed.webhook(TestTenants.DEFAULT_SECRET, Events.body("dead-1")).header("X-Event-ID", "dead-1")
                .post("/webhook/" + t).then().statusCode(202);
        Received ingest = awaitSpan(Tracing.INGEST, t);
        await().atMost(PATIENCE).until(() -> deadLetters(t) == 1);

        Signed.command("{}").post("/control/tenants/" + t + "/dead-letters/replay").then().statusCode(200);
        List<Received> deliveries = awaitSpans(Tracing.DELIVER, t, 2);
        assertEquals(List.of("refused", "delivered"),
                deliveries.stream().map(d -> d.attributes().get("buffer.outcome")).toList());
        for (Received delivery : deliveries) {
            assertEquals(List.of(ingest.traceId() + "/" + ingest.spanId()),
                    delivery.links().stream().map(l -> l.traceId() + "/" + l.spanId()).toList(),
                    "the batch links to the event's ingest span");
        }
        await().atMost(PATIENCE).until(() -> origin.events(t).size() == 2);
        assertEquals("00-" + ingest.traceId() + "-" + ingest.spanId() + "-01",
                origin.events(t).get(1).get("traceparent").asText(), "the replayed event's own context");
    }

    private static int deadLetters(String tenantId) {
        return Signed.command("").get("/control/tenants/" + tenantId + "/dead-letters").then().statusCode(200)
                .extract().jsonPath().getList("deadLetters").size();
    }

    private Received commitLinking(Received ingest) {
        return receiver.spans().stream().filter(s -> s.name().equals(Tracing.COMMIT))
                .filter(s -> s.links().stream().anyMatch(l -> l.spanId().equals(ingest.spanId())))
                .findFirst().orElse(null);
    }

    private Received awaitSpan(String name, String tenantId) {
        return awaitSpans(name, tenantId, 1).get(0);
    }

    private List<Received> awaitSpans(String name, String tenantId, int count) {
        return await().atMost(PATIENCE).until(() -> receiver.spans().stream()
                .filter(s -> s.name().equals(name) && tenantId.equals(s.attributes().get("buffer.tenant"))).toList(),
                spans -> spans.size() >= count);
    }

    private static String header(FakeOrigin.Batch batch, String name) {
        return batch.headers().entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(name))
                .map(e -> e.getValue().get(0)).findFirst().orElse(null);
    }

    /** A JSON log line with this message whose log context names the span. */
    private static boolean logged(String traceId, String spanId, String message) throws IOException {
        ObjectMapper json = new ObjectMapper();
        for (String line : Files.readAllLines(LOG, StandardCharsets.UTF_8)) {
            if (!line.contains(traceId)) {
                continue;
            }
            JsonNode record = json.readTree(line);
            JsonNode mdc = record.path("mdc");
            if (traceId.equals(mdc.path("traceId").asText()) && spanId.equals(mdc.path("spanId").asText())
                    && record.path("message").asText().contains(message)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Every export request so far, every field of it (attributes, links, names, status messages): no tenant secret,
     * no signature, no origin credential, no control secret, no byte of the body beyond the event's id.
     */
    private void assertNoSecretOrBody(String tenantId, String body) {
        List<String> forbidden = List.of(TestTenants.DEFAULT_SECRET,
                Signed.signature(TestTenants.DEFAULT_SECRET, body.getBytes(StandardCharsets.UTF_8)),
                FakeOriginResource.TOKEN, FakeOriginResource.SIGNING_SECRET, Signed.CONTROL_SECRET,
                "body-only-text-4242", body);
        List<String> requests = receiver.requests();
        assertFalse(requests.isEmpty());
        for (String request : requests) {
            for (String secret : forbidden) {
                assertFalse(request.contains(secret), "an export request carries " + secret);
            }
        }
        assertEquals(Set.of("buffer.tenant", "buffer.provider", "http.request.method", "http.response.status_code",
                "buffer.outcome", "buffer.event_id"),
                Set.copyOf(awaitSpan(Tracing.INGEST, tenantId).attributes().keySet()), "the ingest span's attributes");
    }
}
