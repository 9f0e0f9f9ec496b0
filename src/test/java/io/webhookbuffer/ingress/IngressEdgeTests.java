package io.webhookbuffer.ingress;

import static io.webhookbuffer.testsupport.RawHttp.head;
import static io.webhookbuffer.testsupport.TestTenants.tenant;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

import jakarta.inject.Inject;

import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

import io.quarkus.runtime.configuration.MemorySize;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Pool;
import io.webhookbuffer.metrics.MetricNames;
import io.webhookbuffer.testsupport.CapturedLog;
import io.webhookbuffer.testsupport.Db;
import io.webhookbuffer.testsupport.RawHttp;
import io.webhookbuffer.testsupport.RawHttp.Answer;
import io.webhookbuffer.testsupport.Scrape;
import io.webhookbuffer.testsupport.Signed;
import io.webhookbuffer.testsupport.TestTenants;

/**
 * What a request costs before its sender is authenticated (docs/architecture.md), seen
 * from a raw socket: refusals come before the body is sent, an over-long chunked body is cut at the limit, and a
 * request head that RFC 9112 §3.2 calls invalid gets the documented JSON 400.
 */
@QuarkusTest
class IngressEdgeTests {

    private static final String SECRET = TestTenants.DEFAULT_SECRET;
    private static final String REFUSALS = MetricNames.INGRESS_REFUSALS.prometheus();
    private static final Duration ANSWER = Duration.ofSeconds(5);
    /** A body far above every limit of these tenants, declared and never sent. */
    private static final long BIG = 10_000_000;

    @Inject
    Pool pool;

    @Inject
    EdgePort edge;

    @Test
    void theHttpServerClosesSilentConnectionsAndAdmitsGitHubsLargestPayload() {
        // The head deadline and the connection cap are seen at work in SlowSendersTests and ConnectionCapTests.
        Config config = ConfigProvider.getConfig();
        Duration idle = config.getValue("quarkus.http.idle-timeout", Duration.class);
        assertTrue(idle.compareTo(Duration.ofMinutes(2)) <= 0, "a silent connection is closed within minutes: " + idle);
        assertEquals(25L * 1024 * 1024, config.getValue("quarkus.http.limits.max-body-size", MemorySize.class)
                .asLongValue(), "the hard ceiling admits GitHub's largest payload (25 MB)");
    }

    @Test
    void aClientThatOffersAnH2cUpgradeIsServedOverHttp11() throws Exception {
        String t = tenant().provision();
        byte[] body = "{\"upgrade\":\"h2c\"}".getBytes(StandardCharsets.UTF_8);
        HttpClient client = HttpClient.newHttpClient(); // HTTP/2 preferred: it asks a cleartext server to upgrade
        HttpResponse<String> answer = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + edge.port()
                + "/webhook/" + t)).header("X-Signature", Signed.signature(SECRET, body))
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(202, answer.statusCode(), answer.body());
        assertEquals(HttpClient.Version.HTTP_1_1, answer.version(), "the buffer speaks HTTP/1.1 only");
    }

    @Test
    void contentLengthOverTheTenantLimitIs413BeforeTheBodyIsSentAndTheConnectionCloses() throws Exception {
        String t = tenant().maxBodyBytes(1024).provision();
        try (RawHttp http = RawHttp.open()) {
            http.send(head("POST /webhook/" + t, "Host: 127.0.0.1", "Content-Type: application/json",
                    "X-Signature: " + "0".repeat(64), "Content-Length: " + BIG));
            Answer answer = http.answer(ANSWER); // only the head was sent: an answer now is an answer before the body
            assertEquals(413, answer.status());
            assertEquals("payload_too_large", json(answer).getString("status"));
            assertEquals("close", answer.header("Connection"));
            assertTrue(http.closedWithin(ANSWER), "the sender cannot go on streaming the body");
        }
        assertEquals(0, Db.queued(pool, t));
    }

    @Test
    void unknownTenantWithABigContentLengthIs404BeforeTheBodyIsSent() throws Exception {
        for (String path : List.of("/webhook/unknown-" + System.nanoTime(), "/webhook/bad.id")) {
            try (RawHttp http = RawHttp.open()) {
                http.send(head("POST " + path, "Host: 127.0.0.1", "Content-Length: " + BIG));
                Answer answer = http.answer(ANSWER);
                assertEquals(404, answer.status(), path);
                assertEquals("unknown_tenant", json(answer).getString("status"), path);
                assertTrue(http.closedWithin(ANSWER), path);
            }
        }
    }

    @Test
    void chunkedBodyOverTheLimitIsStoppedAt413AndTheConnectionClosed() throws Exception {
        String t = tenant().maxBodyBytes(1024).provision();
        try (RawHttp http = RawHttp.open()) {
            http.send(head("POST /webhook/" + t, "Host: 127.0.0.1", "X-Signature: " + "0".repeat(64),
                    "Transfer-Encoding: chunked"));
            http.chunk(new byte[600]).chunk(new byte[600]); // 1,200 bytes so far, no end in sight
            Answer answer = http.answer(ANSWER);
            assertEquals(413, answer.status());
            assertEquals("payload_too_large", json(answer).getString("status"));
            assertTrue(http.closedWithin(ANSWER), "the connection is closed, not left to drain the rest");
        }
        assertEquals(0, Db.queued(pool, t));
    }

    @Test
    void chunkedBodyWithinTheLimitIsStoredByteForByte() throws Exception {
        String t = tenant().maxBodyBytes(1024).provision();
        byte[] body = new byte[1024];
        Arrays.fill(body, (byte) 'c');
        try (RawHttp http = RawHttp.open()) {
            http.send(head("POST /webhook/" + t, "Host: 127.0.0.1", "X-Event-ID: chunked-1",
                    "X-Signature: " + Signed.signature(SECRET, body), "Transfer-Encoding: chunked"));
            http.chunk(Arrays.copyOfRange(body, 0, 1000)).chunk(Arrays.copyOfRange(body, 1000, 1024)).send("0\r\n\r\n");
            assertEquals(202, http.answer(ANSWER).status());
        }
        assertArrayEquals(body, Db.queueRows(pool, t).get(0).getBuffer("body").getBytes());
    }

    @Test
    void aChunkedBodyThatOutgrowsItsFirstArrayIsStoredByteForByte() throws Exception {
        String t = tenant().maxBodyBytes(200_000).provision();
        byte[] body = new byte[150_001];
        for (int i = 0; i < body.length; i++) {
            body[i] = (byte) (i * 31 + i / 7);
        }
        try (RawHttp http = RawHttp.open()) {
            http.send(head("POST /webhook/" + t, "Host: 127.0.0.1", "X-Event-ID: chunked-grown",
                    "X-Signature: " + Signed.signature(SECRET, body), "Transfer-Encoding: chunked"));
            // Uneven chunks across every doubling of the array: 16 KiB, 32, 64, 128, 200 KB (the tenant's limit).
            int[] cuts = { 1, 16_384, 16_385, 40_000, 100_000, body.length };
            int from = 0;
            for (int cut : cuts) {
                http.chunk(Arrays.copyOfRange(body, from, cut));
                from = cut;
            }
            assertEquals(202, http.send("0\r\n\r\n").answer(ANSWER).status());
        }
        assertArrayEquals(body, Db.queueRows(pool, t).get(0).getBuffer("body").getBytes());
    }

    /**
     * Bodies of 64 KiB or more are MACed as they arrive and held off the heap meanwhile: a genuine one declared with
     * Content-Length is stored byte for byte, a forged one sent chunked (one bit flipped) is 401 and stores nothing.
     */
    @Test
    void aLargeBodyCheckedAsItArrivesIsStoredByteForByteAndAForgedOneIsNot() throws Exception {
        String t = tenant().maxBodyBytes(400_000).provision();
        byte[] body = new byte[300_000];
        for (int i = 0; i < body.length; i++) {
            body[i] = (byte) (i * 17 + i / 5);
        }
        try (RawHttp http = RawHttp.open()) {
            http.send(head("POST /webhook/" + t, "Host: 127.0.0.1", "X-Event-ID: declared-large",
                    "X-Signature: " + Signed.signature(SECRET, body), "Content-Length: " + body.length));
            assertEquals(202, http.send(body).answer(ANSWER).status());
        }
        byte[] forged = body.clone();
        forged[150_000] ^= 1;
        try (RawHttp http = RawHttp.open()) {
            http.send(head("POST /webhook/" + t, "Host: 127.0.0.1", "X-Event-ID: forged-large",
                    "X-Signature: " + Signed.signature(SECRET, body), "Transfer-Encoding: chunked"));
            for (int from = 0; from < forged.length; from += 50_000) {
                http.chunk(Arrays.copyOfRange(forged, from, Math.min(forged.length, from + 50_000)));
            }
            RawHttp.Answer answer = http.send("0\r\n\r\n").answer(ANSWER);
            assertEquals(401, answer.status(), answer.body());
            assertTrue(answer.body().contains("bad_signature"), answer.body());
        }
        assertEquals(1, Db.queueRows(pool, t).size(), "only the genuine body is stored");
        assertArrayEquals(body, Db.queueRows(pool, t).get(0).getBuffer("body").getBytes());
    }

    @Test
    void expectContinueIsAnsweredOnlyOnceTheBodyIsWanted() throws Exception {
        String t = tenant().maxBodyBytes(1024).provision();
        byte[] body = "{\"continue\":true}".getBytes(StandardCharsets.UTF_8);
        try (RawHttp http = RawHttp.open()) {
            http.send(head("POST /webhook/" + t, "Host: 127.0.0.1", "Expect: 100-continue",
                    "X-Signature: " + Signed.signature(SECRET, body), "Content-Length: " + body.length));
            assertEquals(100, http.answer(ANSWER).status());
            http.send(body);
            assertEquals(202, http.answer(ANSWER).status());
        }
        try (RawHttp http = RawHttp.open()) {
            http.send(head("POST /webhook/" + t, "Host: 127.0.0.1", "Expect: 100-continue", "Content-Length: " + BIG));
            assertEquals(413, http.answer(ANSWER).status(), "refused at once, never invited to send");
        }
    }

    @Test
    void missingHostIsTheDocumentedJson400WithoutAnErrorLine() throws Exception {
        String t = tenant().provision();
        byte[] body = "{\"host\":\"none\"}".getBytes(StandardCharsets.UTF_8);
        try (CapturedLog log = CapturedLog.start()) {
            for (String path : List.of("/webhook/" + t, "/q/health/live")) {
                try (RawHttp http = RawHttp.open()) {
                    http.send(head("POST " + path, "X-Signature: " + Signed.signature(SECRET, body),
                            "Content-Length: " + body.length)).send(body);
                    assertInvalidHost(http.answer(ANSWER), path);
                }
            }
            assertEquals(List.of(), log.errors(), "a client's mistake is not an ERROR");
        }
        assertEquals(0, Db.queued(pool, t));
    }

    /**
     * A request line that names HTTP/2.0 on an HTTP/1.1-only server (an h2 prior-knowledge preface, or a client that
     * writes the version wrong) fails in Vert.x Web for want of an {@code :authority}: the documented JSON 400 at
     * DEBUG, not Quarkus's error page and an ERROR line per request (found by the abuse suite).
     */
    @Test
    void anHttp2RequestLineIsTheDocumentedJson400WithoutAnErrorLine() throws Exception {
        String t = tenant().provision();
        try (CapturedLog log = CapturedLog.start()) {
            for (String request : List.of("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n",
                    "POST /webhook/" + t + " HTTP/2.0\r\nContent-Length: 2\r\n\r\n{}")) {
                try (RawHttp http = RawHttp.open()) {
                    assertInvalidHost(http.send(request).answer(ANSWER), request);
                }
            }
            assertEquals(List.of(), log.errors(), "a client's mistake is not an ERROR");
        }
        assertEquals(0, Db.queued(pool, t));
    }

    /**
     * A request line with a version Vert.x does not know (HTTP/9.9, HTTP/2.0) is answered by the application, never a
     * 5xx: Vert.x answers such a request 501 by itself unless its server has a WebSocket handler, as Quarkus's has
     * (the webhook port's server once lacked one, and the abuse suite counted 336 of these 501s).
     */
    @Test
    void aRequestLineWithAnUnknownVersionIsAnsweredByTheApplicationNot501() throws Exception {
        String t = tenant().provision();
        for (String version : List.of("HTTP/9.9", "HTTP/2.0")) {
            try (RawHttp http = RawHttp.open()) {
                Answer answer = http.send("POST /webhook/" + t + " " + version + "\r\nHost: 127.0.0.1\r\n"
                        + "Content-Length: 2\r\n\r\n{}").answer(ANSWER);
                assertTrue(answer.status() < 500, version + ": " + answer);
            }
        }
        assertEquals(0, Db.queued(pool, t));
    }

    @Test
    void emptyRepeatedOrMalformedHostIs400AndNothingIsStored() throws Exception {
        String t = tenant().provision();
        byte[] body = "{\"host\":\"odd\"}".getBytes(StandardCharsets.UTF_8);
        String signature = "X-Signature: " + Signed.signature(SECRET, body);
        try (CapturedLog log = CapturedLog.start()) {
            for (List<String> hosts : List.of(List.of("Host:"), List.of("Host: 127.0.0.1", "Host: evil.example"),
                    List.of("Host: 127.0.0.1", "Host: 127.0.0.1"), List.of("Host: a b"))) {
                try (RawHttp http = RawHttp.open()) {
                    StringBuilder request = new StringBuilder("POST /webhook/" + t + " HTTP/1.1\r\n");
                    hosts.forEach(h -> request.append(h).append("\r\n"));
                    request.append(signature).append("\r\nContent-Length: ").append(body.length).append("\r\n\r\n");
                    http.send(request.toString()).send(body);
                    assertInvalidHost(http.answer(ANSWER), hosts.toString());
                }
            }
            assertEquals(List.of(), log.errors());
        }
        assertEquals(0, Db.queued(pool, t));
    }

    /**
     * A path the router would read differently from how it was sent (dot segments, their percent-encoded spellings)
     * is refused before any route runs: {@code /webhook/../q/health/ready} reached readiness (found by the abuse suite),
     * and a proxy in front that routes or filters on the raw path would disagree with the route taken here.
     */
    @Test
    void aPathWithDotSegmentsIsTheDocumentedJson400OnEveryPath() throws Exception {
        String t = tenant().provision();
        byte[] body = "{\"path\":\"dots\"}".getBytes(StandardCharsets.UTF_8);
        String signature = "X-Signature: " + Signed.signature(SECRET, body);
        double before = Scrape.now().count(REFUSALS, "reason", "invalid_path");
        try (CapturedLog log = CapturedLog.start()) {
            for (String path : List.of("/webhook/../q/health/ready", "/webhook/./" + t, "/webhook/x/../" + t,
                    "/webhook/%2e%2e/q/health/live", "/q/../webhook/" + t, "/webhook/" + t + "/..")) {
                for (String method : List.of("POST", "GET")) {
                    try (RawHttp http = RawHttp.open()) {
                        http.send(head(method + " " + path, "Host: 127.0.0.1", signature,
                                "Content-Length: " + body.length)).send(body);
                        Answer answer = http.answer(ANSWER);
                        assertEquals(400, answer.status(), method + " " + path);
                        assertEquals("invalid_path", json(answer).getString("reason"), method + " " + path);
                    }
                }
            }
            assertEquals(List.of(), log.errors(), "a client's mistake is not an ERROR");
        }
        assertEquals(12, Scrape.now().count(REFUSALS, "reason", "invalid_path") - before, "each of the 12 counted");
        assertEquals(0, Db.queued(pool, t));
    }

    @Test
    void http10WithoutHostIsStillServed() throws Exception {
        String t = tenant().provision();
        byte[] body = "{\"http\":\"1.0\"}".getBytes(StandardCharsets.UTF_8);
        try (RawHttp http = RawHttp.open()) {
            http.send("POST /webhook/" + t + " HTTP/1.0\r\nX-Signature: " + Signed.signature(SECRET, body)
                    + "\r\nContent-Length: " + body.length + "\r\n\r\n").send(body);
            assertEquals(202, http.answer(ANSWER).status(), "HTTP/1.0 does not require Host (RFC 9112 §3.2)");
        }
    }

    @Test
    void moreHeaderLinesThanTheLimitIs431() throws Exception {
        String t = tenant().provision();
        assertEquals(202, withHeaderLines(t, 99).status());
        assertEquals(202, withHeaderLines(t, 100).status(), "at the limit the request is served");
        Answer over = withHeaderLines(t, 101);
        assertEquals(431, over.status());
        assertEquals("too_many_headers", json(over).getString("status"));
    }

    /**
     * The gate's early answers (written before RESTEasy runs) carry {@code X-Request-ID} like every other answer: the
     * caller's plain token echoed, else a new id, so a refused request can be found in the logs and by the sender.
     */
    @Test
    void earlyAnswersCarryTheRequestIdLikeEveryOtherAnswer() throws Exception {
        String small = tenant().maxBodyBytes(1024).provision();
        StringBuilder many = new StringBuilder();
        for (int i = 0; i < 101; i++) {
            many.append("X-Pad: ").append(i).append("\r\n");
        }
        List<String> heads = List.of(
                "POST /webhook/unknown-" + System.nanoTime() + " HTTP/1.1\r\nHost: h\r\n%sContent-Length: 9\r\n\r\n",
                "POST /webhook/" + small + " HTTP/1.1\r\nHost: h\r\n%sContent-Length: " + BIG + "\r\n\r\n",
                "POST /webhook/" + small + " HTTP/1.1\r\nHost: h\r\n%s" + many + "Content-Length: 9\r\n\r\n",
                "POST /webhook/" + small + " HTTP/1.1\r\nHost:\r\n%sContent-Length: 9\r\n\r\n",
                "POST /webhook/" + small + " HTTP/1.1\r\n%sContent-Length: 9\r\n\r\n");
        for (String template : heads) {
            String mine = "edge-" + System.nanoTime();
            try (RawHttp http = RawHttp.open()) {
                Answer echoed = http.send(String.format(template, "X-Request-ID: " + mine + "\r\n")).answer(ANSWER);
                assertEquals(mine, echoed.header("X-Request-ID"), echoed.status() + " " + template);
            }
            try (RawHttp http = RawHttp.open()) {
                Answer fresh = http.send(String.format(template, "X-Request-ID: not a token\r\n")).answer(ANSWER);
                String id = fresh.header("X-Request-ID");
                assertTrue(id != null && !id.isBlank() && !id.contains(" "), fresh.status() + " a new id: " + id);
            }
        }
        byte[] body = "{\"normal\":true}".getBytes(StandardCharsets.UTF_8);
        try (RawHttp http = RawHttp.open()) { // and an answer from RESTEasy carries it once (RawHttp joins repeats)
            http.send(head("POST /webhook/" + small, "Host: h", "X-Request-ID: normal-1", "Content-Length: "
                    + body.length, "X-Signature: " + Signed.signature(SECRET, body))).send(body);
            Answer normal = http.answer(ANSWER);
            assertEquals(202, normal.status());
            assertEquals("normal-1", normal.header("X-Request-ID"));
        }
    }

    /** A signed webhook whose head has {@code lines} header lines (Host, X-Signature, Content-Length, padding). */
    private static Answer withHeaderLines(String tenant, int lines) throws Exception {
        byte[] body = ("{\"lines\":" + lines + "}").getBytes(StandardCharsets.UTF_8);
        StringBuilder request = new StringBuilder("POST /webhook/" + tenant + " HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                .append("X-Signature: ").append(Signed.signature(SECRET, body))
                .append("\r\nContent-Length: ").append(body.length).append("\r\n");
        for (int i = 3; i < lines; i++) {
            request.append("X-Pad: ").append(i).append("\r\n");
        }
        try (RawHttp http = RawHttp.open()) {
            http.send(request.append("\r\n").toString()).send(body);
            return http.answer(ANSWER);
        }
    }

    private static void assertInvalidHost(Answer answer, String what) {
        assertEquals(400, answer.status(), what);
        JsonObject reply = json(answer);
        assertEquals("bad_request", reply.getString("status"), what);
        assertEquals("invalid_host", reply.getString("reason"), what);
    }

    private static JsonObject json(Answer answer) {
        assertTrue(String.valueOf(answer.header("Content-Type")).startsWith("application/json"), answer.toString());
        return new JsonObject(answer.body());
    }
}
