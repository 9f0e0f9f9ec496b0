package io.webhookbuffer.ingress;

import static io.webhookbuffer.testsupport.RawHttp.head;
import static io.webhookbuffer.testsupport.TestTenants.tenant;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
import io.webhookbuffer.common.Hex;
import io.webhookbuffer.common.Hmac;
import io.webhookbuffer.testsupport.Db;
import io.webhookbuffer.testsupport.RawHttp;
import io.webhookbuffer.testsupport.RawHttp.Answer;
import io.webhookbuffer.testsupport.TestTenants;

/**
 * What a request costs before its sender is authenticated (README "What an unauthenticated request costs"), seen
 * from a raw socket: refusals come before the body is sent, and an over-long chunked body is cut at the limit.
 */
@QuarkusTest
class IngressEdgeTests {

    private static final String SECRET = TestTenants.DEFAULT_SECRET;
    private static final Duration ANSWER = Duration.ofSeconds(5);
    /** A body far above every limit of these tenants, declared and never sent. */
    private static final long BIG = 10_000_000;

    @Inject
    Pool pool;

    @Test
    void theHttpServerBoundsSlowAndManySenders() {
        Config config = ConfigProvider.getConfig();
        Duration idle = config.getValue("quarkus.http.idle-timeout", Duration.class);
        assertTrue(idle.compareTo(Duration.ofMinutes(2)) <= 0, "a silent connection is closed within minutes: " + idle);
        assertTrue(config.getOptionalValue("quarkus.http.limits.max-connections", Integer.class).isPresent(),
                "a connection cap per replica");
        assertEquals(25L * 1024 * 1024, config.getValue("quarkus.http.limits.max-body-size", MemorySize.class)
                .asLongValue(), "the hard ceiling admits GitHub's largest payload (25 MB)");
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
                    "X-Signature: " + Hex.encode(Hmac.hmacSha256(SECRET, body)), "Transfer-Encoding: chunked"));
            http.chunk(Arrays.copyOfRange(body, 0, 1000)).chunk(Arrays.copyOfRange(body, 1000, 1024)).send("0\r\n\r\n");
            assertEquals(202, http.answer(ANSWER).status());
        }
        assertArrayEquals(body, Db.queueRows(pool, t).get(0).getBuffer("body").getBytes());
    }

    @Test
    void expectContinueIsAnsweredOnlyOnceTheBodyIsWanted() throws Exception {
        String t = tenant().maxBodyBytes(1024).provision();
        byte[] body = "{\"continue\":true}".getBytes(StandardCharsets.UTF_8);
        try (RawHttp http = RawHttp.open()) {
            http.send(head("POST /webhook/" + t, "Host: 127.0.0.1", "Expect: 100-continue",
                    "X-Signature: " + Hex.encode(Hmac.hmacSha256(SECRET, body)), "Content-Length: " + body.length));
            assertEquals(100, http.answer(ANSWER).status());
            http.send(body);
            assertEquals(202, http.answer(ANSWER).status());
        }
        try (RawHttp http = RawHttp.open()) {
            http.send(head("POST /webhook/" + t, "Host: 127.0.0.1", "Expect: 100-continue", "Content-Length: " + BIG));
            assertEquals(413, http.answer(ANSWER).status(), "refused at once, never invited to send");
        }
    }

    private static JsonObject json(Answer answer) {
        assertTrue(String.valueOf(answer.header("Content-Type")).startsWith("application/json"), answer.toString());
        return new JsonObject(answer.body());
    }
}
