package io.webhookbuffer.ingress;

import static io.webhookbuffer.testsupport.TestTenants.tenant;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Pattern;

import jakarta.inject.Inject;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.webhookbuffer.common.Hmac;
import io.webhookbuffer.metrics.MetricNames;
import io.webhookbuffer.testsupport.EventKeys;
import io.webhookbuffer.testsupport.InjectProxy;
import io.webhookbuffer.testsupport.TestClock;
import io.webhookbuffer.testsupport.RawHttp;
import io.webhookbuffer.testsupport.RawHttp.Answer;
import io.webhookbuffer.testsupport.Signed;
import io.webhookbuffer.testsupport.SignatureVectors;
import io.webhookbuffer.testsupport.SignatureVectors.Vector;
import io.webhookbuffer.testsupport.TcpProxy;
import io.webhookbuffer.testsupport.TestTenants;
import io.webhookbuffer.testsupport.CapturedLog;

/**
 * The ingest answers as a sender sees them on the wire, written out literally: the status line, every header line in
 * its order and case, the body byte for byte; and what each answer counts ({@code buffer_ingest_total},
 * {@code buffer_ingest_ack}) and logs (the DEBUG line with its log context). The expectations were recorded from the
 * answers of the RESTEasy resource that answered {@code POST /webhook/{tenantId}} until issue 42, so they also say
 * that its removal changed no byte a sender sees.
 */
@QuarkusTest
@TestProfile(IngestAnswersProfile.class)
class IngestAnswersTests {

    private static final Duration WITHIN = Duration.ofSeconds(10);
    private static final Path LOG = CapturedLog.FILE;
    private static final Pattern GENERATED_ID = Pattern.compile("[0-9a-z]+-[0-9a-z]+");
    private static final String JSON = "application/json";
    private static final String JSON_UTF8 = "application/json;charset=UTF-8";

    @Inject
    MeterRegistry registry;

    @Inject
    ObjectMapper json;

    @Inject
    TestClock clock;

    @InjectProxy
    TcpProxy proxy;

    @AfterEach
    void restore() throws IOException {
        clock.unpin();
        proxy.restore();
    }

    /** 202, then 200 for the same event, with an id whose JSON needs escapes ({@code "}, {@code \}, Latin-1). */
    @Test
    void bufferedThenDeduplicated() throws IOException {
        String t = tenant().provision();
        byte[] body = "{\"n\":1}".getBytes(StandardCharsets.UTF_8);
        String id = "evt \"q\" \\ \u00e9";
        String escaped = "evt \\\"q\\\" \\\\ \u00e9:" + EventKeys.bound("", body).substring(1);
        Answer first = counted("buffered", () -> post(t, generic(body, "X-Event-ID: " + id), body, "r-202"));
        decided(first, "HTTP/1.1 202 Accepted", "{\"status\":\"buffered\",\"eventId\":\"" + escaped + "\"}", "r-202",
                null);
        Answer again = counted("deduplicated", () -> post(t, generic(body, "X-Event-ID: " + id), body, "r-200"));
        decided(again, "HTTP/1.1 200 OK", "{\"status\":\"deduplicated\",\"eventId\":\"" + escaped + "\"}", "r-200",
                null);
        logged("r-202", "POST /webhook/" + t + " -> 202", t, EventKeys.bound(id, body));
        // Quarkus's HTTP metrics name the route's template, never the tenant (one series per path, not per tenant).
        assertTrue(registry.find("http.server.requests").tag("uri", "/webhook/{tenantId}").tag("status", "202")
                .timer() != null, "http_server_requests_seconds{uri=/webhook/{tenantId}}");
        assertTrue(registry.find("http.server.requests").timers().stream()
                .noneMatch(timer -> timer.getId().getTag("uri").contains(t)), "no series per tenant");
    }

    /**
     * A signed body id (Stripe's {@code id}) with every kind of character JSON treats apart: quote, backslash,
     * control characters (short and {@code \}{@code u} escapes), DEL and U+2028 (written raw), a Latin-1 letter
     * (raw UTF-8) and a character outside the BMP (Jackson's UTF-8 writer escapes its surrogate pair).
     */
    @Test
    void anEventIdWithCharactersJsonEscapes() throws IOException {
        String secret = "whsec-answers-stripe";
        String t = tenant().provider("stripe").secrets(secret).provision();
        String raw = "evt_\\\"q\\\\/\\n\\t\\u0001\u007f\u2028\u00e9\ud83d\ude00";
        byte[] body = ("{\"id\":\"" + raw + "\",\"type\":\"x\"}").getBytes(StandardCharsets.UTF_8);
        long ts = System.currentTimeMillis() / 1000;
        String signed = ts + "." + new String(body, StandardCharsets.UTF_8);
        String header = "Stripe-Signature: t=" + ts + ",v1="
                + HexFormat.of().formatHex(Hmac.hmacSha256(secret, signed.getBytes(StandardCharsets.UTF_8)));
        Answer a = counted("buffered", () -> post(t, List.of(header, "Content-Type: application/json"), body, "r-id"));
        String expected = "evt_\\\"q\\\\/\\n\\t\\u0001\u007f\u2028\u00e9\\uD83D\\uDE00";
        decided(a, "HTTP/1.1 202 Accepted", "{\"status\":\"buffered\",\"eventId\":\"" + expected + "\"}", "r-id",
                null);
        byte[] jackson = json.writeValueAsBytes(new IngressReply("buffered",
                "evt_\"q\\/\n\t\u0001\u007f\u2028\u00e9\ud83d\ude00", null));
        assertEquals(new String(jackson, StandardCharsets.UTF_8), a.body(), "as the application's ObjectMapper writes it");
    }

    @Test
    void badAndMissingSignatures() throws IOException {
        String t = tenant().provision();
        byte[] body = "{\"n\":2}".getBytes(StandardCharsets.UTF_8);
        Answer bad = counted("bad_signature", () -> post(t, List.of("X-Signature: " + "0".repeat(64)), body, "r-401"));
        decided(bad, "HTTP/1.1 401 Unauthorized", "{\"status\":\"invalid_signature\",\"reason\":\"bad_signature\"}",
                "r-401", null);
        Answer missing = counted("bad_signature", () -> post(t, List.of(), body, "r-401m"));
        decided(missing, "HTTP/1.1 401 Unauthorized",
                "{\"status\":\"invalid_signature\",\"reason\":\"missing_signature\"}", "r-401m", null);
        logged("r-401", "POST /webhook/" + t + " -> 401", t, null);
    }

    @Test
    void unknownTenantAndTooLarge() throws IOException {
        byte[] body = "{\"n\":4}".getBytes(StandardCharsets.UTF_8);
        Answer unknown = counted("unknown_tenant", () -> post("no-such-" + System.nanoTime(), generic(body), body,
                "r-404"));
        refused(unknown, "HTTP/1.1 404 Not Found", "{\"status\":\"unknown_tenant\"}", "r-404", null);
        String t = tenant().maxBodyBytes(64).provision();
        byte[] large = ("{\"pad\":\"" + "x".repeat(100) + "\"}").getBytes(StandardCharsets.UTF_8);
        Answer tooLarge = counted("too_large", () -> post(t, generic(large), large, "r-413"));
        refused(tooLarge, "HTTP/1.1 413 Request Entity Too Large", "{\"status\":\"payload_too_large\"}", "r-413",
                null);
    }

    @Test
    void rateLimited() throws IOException {
        String t = tenant().rateLimit(1, 60).senderRetries("long").provision();
        byte[] one = "{\"n\":5}".getBytes(StandardCharsets.UTF_8);
        byte[] two = "{\"n\":6}".getBytes(StandardCharsets.UTF_8);
        assertEquals(202, post(t, generic(one), one, "r-ok").status());
        Answer limited = counted("rate_limited", () -> post(t, generic(two), two, "r-429"));
        decided(limited, "HTTP/1.1 429 Too Many Requests",
                "{\"status\":\"rate_limited\",\"eventId\":\"" + EventKeys.ofBody(two) + "\"}", "r-429", "[1-9][0-9]?");
    }

    @Test
    void verificationPoolFull() throws IOException {
        String t = tenant().provision();
        byte[] large = ("{\"pad\":\"" + "x".repeat(IngestAnswersProfile.OFFLOAD_BYTES) + "\"}")
                .getBytes(StandardCharsets.UTF_8);
        double refused = refusals("verification_busy");
        Answer busy = counted("unavailable", () -> post(t, generic(large), large, "r-503v"));
        assertEquals(refused + 1, refusals("verification_busy"), "buffer_ingress_refusals_total{reason=verification_busy}");
        decided(busy, "HTTP/1.1 503 Service Unavailable",
                "{\"status\":\"unavailable\",\"reason\":\"verification_busy\"}", "r-503v", "1");
    }

    /**
     * A tenant whose mailbox (2) is full (tenant_overloaded), and the two events that fill it, whose commit cannot
     * reach PostgreSQL within the write timeout (not_stored).
     */
    @Test
    void overloadedAndNotStored() throws Exception {
        String t = tenant().senderRetries("long").provision(); // a sender that retries: the mailbox holds 2
        byte[] warm = "{\"n\":7}".getBytes(StandardCharsets.UTF_8);
        assertEquals(202, post(t, generic(warm), warm, "r-warm").status()); // the tenant is cached from here
        proxy.stall();
        List<RawHttp> held = new ArrayList<>();
        List<byte[]> heldBodies = new ArrayList<>();
        try {
            for (int i = 0; i < 2; i++) {
                byte[] body = ("{\"held\":" + i + "}").getBytes(StandardCharsets.UTF_8);
                heldBodies.add(body);
                held.add(RawHttp.open().send(request(t, generic(body), body, "r-held-" + i)));
            }
            Thread.sleep(300); // both in the mailbox before the third arrives
            byte[] third = "{\"n\":8}".getBytes(StandardCharsets.UTF_8);
            Answer overloaded = counted("unavailable", () -> post(t, generic(third), third, "r-503o"));
            decided(overloaded, "HTTP/1.1 503 Service Unavailable", "{\"status\":\"unavailable\",\"eventId\":\""
                    + EventKeys.ofBody(third) + "\",\"reason\":\"tenant_overloaded\"}", "r-503o", "1");
            for (int i = 0; i < 2; i++) {
                decided(held.get(i).answer(WITHIN), "HTTP/1.1 503 Service Unavailable",
                        "{\"status\":\"unavailable\",\"eventId\":\"" + EventKeys.ofBody(heldBodies.get(i))
                                + "\",\"reason\":\"not_stored\"}", "r-held-" + i, "30");
            }
        } finally {
            for (RawHttp http : held) {
                http.close();
            }
        }
    }

    @Test
    void slackAndZoomHandshakes() throws IOException {
        Vector slack = vector("slack", "url-verification-handshake");
        Answer challenge = counted("handshake", () -> replay(slack, "r-slack"));
        decided(challenge, "HTTP/1.1 200 OK",
                "{\"challenge\":\"3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P\"}", "r-slack", null);
        Vector zoom = vector("zoom", "url-validation-handshake");
        Answer token = counted("handshake", () -> replay(zoom, "r-zoom"));
        String encrypted = HexFormat.of().formatHex(Hmac.hmacSha256(zoom.secrets().get(1),
                "qgg8vlvZRS6UYooatFL8Aw".getBytes(StandardCharsets.UTF_8)));
        decided(token, "HTTP/1.1 200 OK",
                "{\"plainToken\":\"qgg8vlvZRS6UYooatFL8Aw\",\"encryptedToken\":\"" + encrypted + "\"}", "r-zoom", null);
    }

    /** Twitch's verification is answered with the bare challenge as text. */
    @Test
    void twitchCallbackVerificationIsPlainText() throws IOException {
        Vector twitch = vector("twitch", "callback-verification");
        Answer challenge = counted("handshake", () -> replay(twitch, "r-twitch"));
        String body = "pogchamp-kappa-360noscope-vohiyo";
        expect(challenge, "HTTP/1.1 200 OK", body, List.of(Pattern.quote("X-Request-ID: r-twitch"),
                Pattern.quote("content-length: " + length(body)), Pattern.quote("Cache-Control: no-store"),
                Pattern.quote("Content-Type: text/plain;charset=UTF-8"), Pattern.quote("X-Content-Type-Options: nosniff")));
    }

    /**
     * Xero's answers have no body: a stored event is 200 (counted as buffered), a bad
     * signature 401, an intent-to-receive 200 (a handshake, not stored).
     */
    @Test
    void xeroAnswersHaveNoBody() throws IOException {
        Answer stored = counted("buffered", () -> replay(vector("xero", "valid"), "r-xero"));
        expect(stored, "HTTP/1.1 200 OK", "", bodiless("r-xero"));
        Answer refused = counted("bad_signature", () -> replay(vector("xero", "wrong-secret"), "r-xero-401"));
        expect(refused, "HTTP/1.1 401 Unauthorized", "", bodiless("r-xero-401"));
        Answer intent = counted("handshake", () -> replay(vector("xero", "intent-to-receive"), "r-xero-itr"));
        expect(intent, "HTTP/1.1 200 OK", "", bodiless("r-xero-itr"));
    }

    private static List<String> bodiless(String requestId) {
        return List.of(Pattern.quote("X-Request-ID: " + requestId), Pattern.quote("Cache-Control: no-store"),
                Pattern.quote("content-length: 0"));
    }

    /** Not an ingest attempt: 405 with {@code Allow: POST}, counted nowhere. */
    @Test
    void otherMethodsAndTheRequestId() throws IOException {
        String t = tenant().provision();
        Answer get = exchange(RawHttp.head("GET /webhook/" + t, "Host: h", "X-Request-ID: r-405"), new byte[0]);
        String allowed = "{\"status\":\"method_not_allowed\"}";
        expect(get, "HTTP/1.1 405 Method Not Allowed", allowed, List.of("X-Request-ID: r-405",
                "content-length: " + length(allowed), "Allow: POST", Pattern.quote("Content-Type: " + JSON_UTF8)));
        byte[] body = "{\"n\":9}".getBytes(StandardCharsets.UTF_8);
        List<String> head = new ArrayList<>(generic(body));
        head.add("X-Request-ID: not a token");
        Answer fresh = post(t, head, body, null);
        assertEquals(202, fresh.status());
        assertTrue(GENERATED_ID.matcher(fresh.header("X-Request-ID")).matches(), fresh.header("X-Request-ID"));
    }

    // ---- helpers ----

    /**
     * The answer to a request read in full: the status line, the header lines in their order and case, the body's
     * bytes. {@code retryAfter} is a pattern, or null for none.
     */
    private static void decided(Answer a, String statusLine, String body, String requestId, String retryAfter) {
        List<String> lines = new ArrayList<>(List.of(Pattern.quote("X-Request-ID: " + requestId),
                Pattern.quote("content-length: " + length(body)), Pattern.quote("Content-Type: " + JSON_UTF8)));
        if (retryAfter != null) {
            lines.add("Retry-After: " + retryAfter);
        }
        expect(a, statusLine, body, lines);
    }

    /** A refusal the ingest gate gives before the body is read. */
    private static void refused(Answer a, String statusLine, String body, String requestId, String retryAfter) {
        List<String> lines = new ArrayList<>(List.of(Pattern.quote("X-Request-ID: " + requestId)));
        if (retryAfter != null) {
            lines.add("Retry-After: " + retryAfter);
        }
        lines.addAll(List.of(Pattern.quote("content-type: " + JSON), "connection: close",
                Pattern.quote("content-length: " + length(body))));
        expect(a, statusLine, body, lines);
    }

    private static void expect(Answer a, String statusLine, String body, List<String> headerLines) {
        String shown = a.statusLine() + "\n" + String.join("\n", a.headerLines()) + "\n\n" + a.body();
        assertEquals(statusLine, a.statusLine(), shown);
        assertEquals(body, a.body(), shown);
        assertEquals(headerLines.size(), a.headerLines().size(), shown);
        for (int i = 0; i < headerLines.size(); i++) {
            assertTrue(Pattern.matches(headerLines.get(i), a.headerLines().get(i)), headerLines.get(i) + "\n" + shown);
        }
    }

    private static int length(String body) {
        return body.getBytes(StandardCharsets.UTF_8).length;
    }

    /** The answer, and that it counted once under its outcome, with its ack time. */
    private Answer counted(String outcome, Exchange exchange) throws IOException {
        double before = count(outcome);
        long timed = timed(outcome);
        Answer a = exchange.run();
        assertEquals(before + 1, count(outcome), "buffer_ingest_total{outcome=" + outcome + "}");
        assertEquals(timed + 1, timed(outcome), "buffer_ingest_ack_seconds_count{outcome=" + outcome + "}");
        return a;
    }

    private double count(String outcome) {
        var counter = registry.find("buffer.ingest").tag("outcome", outcome).counter();
        return counter == null ? 0 : counter.count();
    }

    private double refusals(String reason) {
        var counter = registry.find(MetricNames.INGRESS_REFUSALS.name()).tag(MetricNames.REASON, reason).counter();
        return counter == null ? 0 : counter.count();
    }

    private long timed(String outcome) {
        var timer = registry.find("buffer.ingest.ack").tag("outcome", outcome).timer();
        return timer == null ? 0 : timer.count();
    }

    /** The request's DEBUG line, with its log context. */
    private static void logged(String requestId, String message, String tenantId, String eventId) throws IOException {
        ObjectMapper reader = new ObjectMapper();
        String ofRequest = "\"requestId\":\"" + requestId + "\"";
        Awaitility.await().atMost(WITHIN).until(() -> Files.readAllLines(LOG, StandardCharsets.UTF_8).stream()
                .anyMatch(l -> l.contains(message) && l.contains(ofRequest)));
        JsonNode line = null;
        for (String l : Files.readAllLines(LOG, StandardCharsets.UTF_8)) {
            if (l.contains(message) && l.contains(ofRequest)) {
                line = reader.readTree(l);
            }
        }
        assertTrue(line != null, message);
        assertEquals("io.webhookbuffer.ops.RequestLogging", line.path("loggerName").asText(), line.toString());
        JsonNode mdc = line.path("mdc");
        assertEquals(requestId, mdc.path("requestId").asText(), line.toString());
        assertEquals(tenantId, mdc.path("tenantId").asText(), line.toString());
        assertEquals(eventId == null ? "" : eventId, mdc.path("eventId").asText(""), line.toString());
    }

    private static List<String> generic(byte[] body, String... more) {
        List<String> head = new ArrayList<>(List.of("X-Signature: " + Signed.signature(TestTenants.DEFAULT_SECRET,
                body), "Content-Type: application/json"));
        head.addAll(List.of(more));
        return head;
    }

    private static Answer post(String tenantId, List<String> headers, byte[] body, String requestId)
            throws IOException {
        try (RawHttp http = RawHttp.open()) {
            return http.send(request(tenantId, headers, body, requestId)).answer(WITHIN);
        }
    }

    /** The request's bytes as sent: the head (with Host and Content-Length, and the request id when given), the body. */
    private static byte[] request(String tenantId, List<String> headers, byte[] body, String requestId) {
        List<String> head = new ArrayList<>(headers);
        head.add("Host: h");
        head.add("Content-Length: " + body.length);
        if (requestId != null) {
            head.add("X-Request-ID: " + requestId);
        }
        return bytes(RawHttp.head("POST /webhook/" + tenantId, head.toArray(String[]::new)), body);
    }

    private static Answer exchange(String head, byte[] body) throws IOException {
        try (RawHttp http = RawHttp.open()) {
            return http.send(bytes(head, body)).answer(WITHIN);
        }
    }

    private static byte[] bytes(String head, byte[] body) {
        ByteArrayOutputStream request = new ByteArrayOutputStream();
        request.writeBytes(head.getBytes(StandardCharsets.ISO_8859_1));
        request.writeBytes(body);
        return request.toByteArray();
    }

    private Answer replay(Vector v, String requestId) throws IOException {
        String t = tenant().provider(v.provider()).secrets(v.secrets()).provision();
        List<String> head = new ArrayList<>();
        v.headers().forEach((name, value) -> head.add(name + ": " + value));
        clock.pin(v.receivedAt());
        return post(t, head, v.body(), requestId);
    }

    private static Vector vector(String provider, String name) {
        return SignatureVectors.of(provider).stream().filter(v -> v.name().equals(name)).findFirst().orElseThrow();
    }

    @FunctionalInterface
    private interface Exchange {
        Answer run() throws IOException;
    }
}
