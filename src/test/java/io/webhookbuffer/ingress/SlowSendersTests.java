package io.webhookbuffer.ingress;

import static io.webhookbuffer.testsupport.RawHttp.head;
import static io.webhookbuffer.testsupport.TestTenants.tenant;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Pool;
import io.webhookbuffer.fairness.NoisyNeighbourProfile;
import io.webhookbuffer.testsupport.Db;
import io.webhookbuffer.testsupport.RawHttp;
import io.webhookbuffer.testsupport.RawHttp.Answer;
import io.webhookbuffer.testsupport.Scrape;
import io.webhookbuffer.testsupport.Signed;
import io.webhookbuffer.testsupport.TestTenants;

/**
 * Senders that are slow, or many at once: the head deadline, the idle timeout, the body deadline and the replica's
 * budget for bodies in flight ({@link NoisyNeighbourProfile} shrinks them), each seen from a raw socket.
 */
@QuarkusTest
@TestProfile(NoisyNeighbourProfile.class)
class SlowSendersTests {

    private static final String SECRET = TestTenants.DEFAULT_SECRET;
    private static final String IN_FLIGHT = "buffer_ingress_in_flight_bytes";
    private static final String REFUSALS = "buffer_ingress_refusals_total";
    private static final Duration WELL_PAST_THE_IDLE_TIMEOUT = Duration.ofSeconds(10);

    @Inject
    Pool pool;

    @Test
    void aConnectionThatSendsNothingIsClosedAtTheHeadDeadline() throws Exception {
        double before = Scrape.now().count(REFUSALS, "reason", "head_timeout");
        try (RawHttp http = RawHttp.open()) {
            assertTrue(http.closedWithin(WELL_PAST_THE_IDLE_TIMEOUT));
        }
        await().atMost(Duration.ofSeconds(5))
                .until(() -> Scrape.now().count(REFUSALS, "reason", "head_timeout") >= before + 1);
    }

    @Test
    void aHeadSentAByteAtATimeIsClosedAtTheHeadDeadline() throws Exception {
        double before = Scrape.now().count(REFUSALS, "reason", "head_timeout");
        ScheduledExecutorService dribble = Executors.newSingleThreadScheduledExecutor();
        try (RawHttp http = RawHttp.open()) {
            http.send("POST /webhook/slow-head HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ");
            // A byte every 100 ms: never idle for the 3 s idle timeout, and a 20 KiB head would take half an hour.
            dribble.scheduleAtFixedRate(() -> send(http, new byte[] { 'a' }), 0, 100, TimeUnit.MILLISECONDS);
            assertTrue(http.closedWithin(Duration.ofSeconds(2)), "closed at the 1 s head deadline");
        } finally {
            dribble.shutdownNow();
        }
        assertTrue(Scrape.now().count(REFUSALS, "reason", "head_timeout") >= before + 1);
    }

    @Test
    void aKeptAliveConnectionDribblingItsNextHeadIsClosedAtTheIdleTimeoutOfItsAnswer() throws Exception {
        String t = tenant().provision();
        byte[] body = "{\"kept\":\"dribbling\"}".getBytes(StandardCharsets.UTF_8);
        ScheduledExecutorService dribble = Executors.newSingleThreadScheduledExecutor();
        try (RawHttp http = RawHttp.open()) {
            http.send(head("POST /webhook/" + t, "Host: 127.0.0.1", signature(body), "Content-Length: " + body.length))
                    .send(body);
            assertEquals(202, http.answer(Duration.ofSeconds(5)).status());
            long answered = System.nanoTime();
            http.send("POST /webhook/" + t + " HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ");
            // Vert.x's idle timeout counts decoded messages, not bytes: a byte every 100 ms does not reset it.
            dribble.scheduleAtFixedRate(() -> send(http, new byte[] { 'a' }), 0, 100, TimeUnit.MILLISECONDS);
            assertTrue(http.closedWithin(Duration.ofSeconds(6)), "closed while its next head was still coming");
            assertTrue(System.nanoTime() - answered >= Duration.ofMillis(2900).toNanos(),
                    "a kept-alive connection has the idle timeout (3 s) for its next head, not the head deadline");
        } finally {
            dribble.shutdownNow();
        }
        assertEquals(1, Db.dedupeRows(pool, t));
    }

    @Test
    void aBodyDribbledPastTheBodyTimeoutIs408AndTheConnectionClosed() throws Exception {
        String t = tenant().provision();
        byte[] body = new byte[1000];
        Arrays.fill(body, (byte) 'd');
        ScheduledExecutorService dribble = Executors.newSingleThreadScheduledExecutor();
        double before = Scrape.now().count(REFUSALS, "reason", "request_timeout");
        try (RawHttp http = RawHttp.open()) {
            http.send(head("POST /webhook/" + t, "Host: 127.0.0.1", signature(body), "Content-Length: " + body.length));
            // A byte every 100 ms: never idle for the 3 s idle timeout, and 100 s for the whole body.
            dribble.scheduleAtFixedRate(() -> send(http, new byte[] { 'd' }), 0, 100, TimeUnit.MILLISECONDS);
            Answer answer = http.answer(Duration.ofSeconds(5));
            assertEquals(408, answer.status());
            assertEquals("request_timeout", new JsonObject(answer.body()).getString("status"));
            assertTrue(http.closedWithin(Duration.ofSeconds(5)));
        } finally {
            dribble.shutdownNow();
        }
        assertEquals(1, Scrape.now().count(REFUSALS, "reason", "request_timeout") - before, "counted once");
        assertEquals(0, Db.dedupeRows(pool, t));
    }

    @Test
    void bodiesBeyondTheTenantsShareOfTheBudgetAre503WithRetryAfterUntilTheHeldOneIsAnswered() throws Exception {
        String t = tenant().maxBodyBytes(150_000).provision();
        String other = tenant().maxBodyBytes(150_000).provision();
        byte[] held = body(150_000, 'h');
        double busyBefore = Scrape.now().count(REFUSALS, "reason", "replica_busy");
        try (RawHttp first = RawHttp.open()) {
            first.send(head("POST /webhook/" + t, "Host: 127.0.0.1", "X-Event-ID: held", signature(held),
                    "Content-Length: " + held.length)).send(Arrays.copyOf(held, held.length - 1000));
            // Its room grew with its bytes to its declared length: 150,000 of the tenant's 204,800 (half of 409,600).
            await().atMost(Duration.ofSeconds(5)).until(() -> Scrape.now().count(IN_FLIGHT) == held.length);

            // A declared 100,000 is admitted, and refused as its room outgrows what is left of the tenant's share ...
            try (RawHttp second = RawHttp.open()) {
                second.send(head("POST /webhook/" + t, "Host: 127.0.0.1", "Content-Length: 100000"))
                        .send(new byte[60_000]);
                assertBusy(second.answer(Duration.ofSeconds(5)));
                assertTrue(second.closedWithin(Duration.ofSeconds(5)));
            }
            // ... and a chunked one likewise.
            try (RawHttp chunked = RawHttp.open()) {
                chunked.send(head("POST /webhook/" + t, "Host: 127.0.0.1", "Transfer-Encoding: chunked"))
                        .chunk(new byte[30_000]).chunk(new byte[30_000]);
                assertBusy(chunked.answer(Duration.ofSeconds(5)));
            }
            assertEquals(2, Scrape.now().count(REFUSALS, "reason", "replica_busy") - busyBefore, "both counted");
            // Another tenant has its own share: half of the 259,600 this one leaves.
            byte[] beside = body(100_000, 'o');
            try (RawHttp another = RawHttp.open()) {
                another.send(head("POST /webhook/" + other, "Host: 127.0.0.1", "X-Event-ID: beside",
                        signature(beside), "Content-Length: " + beside.length)).send(beside);
                assertEquals(202, another.answer(Duration.ofSeconds(5)).status());
            }

            first.send(Arrays.copyOfRange(held, held.length - 1000, held.length));
            assertEquals(202, first.answer(Duration.ofSeconds(5)).status());
        }
        await().atMost(Duration.ofSeconds(5)).until(() -> Scrape.now().count(IN_FLIGHT) == 0);
        byte[] next = body(100_000, 'n');
        try (RawHttp after = RawHttp.open()) {
            after.send(head("POST /webhook/" + t, "Host: 127.0.0.1", "X-Event-ID: next", signature(next),
                    "Content-Length: " + next.length)).send(next);
            assertEquals(202, after.answer(Duration.ofSeconds(5)).status(), "the budget was given back");
        }
        assertEquals(2, Db.dedupeRows(pool, t));
        assertEquals(1, Db.dedupeRows(pool, other));
    }

    /**
     * A chunked body is read into room that doubles (16 KiB, 32, 64, 128): 70,000 bytes in hold 131,072, on the heap
     * (a scheme that needs the whole body) or off it (the generic scheme's MAC as it arrives), and the budget counts
     * the room, not only the bytes that arrived.
     */
    @ParameterizedTest
    @ValueSource(strings = { "generic", "x" })
    void aChunkedBodyHoldsBudgetForTheRoomItIsReadInto(String provider) throws Exception {
        String t = tenant().provider(provider).maxBodyBytes(150_000).provision();
        byte[] part = body(70_000, 'r');
        try (RawHttp chunked = RawHttp.open()) {
            chunked.send(head("POST /webhook/" + t, "Host: 127.0.0.1", signature(part), "X-Twitter-Webhooks-Signature: "
                    + "sha256=AAAA", "Transfer-Encoding: chunked")).chunk(part);
            await().atMost(Duration.ofSeconds(5)).until(() -> Scrape.now().count(IN_FLIGHT) == 131_072);
        }
        await().atMost(Duration.ofSeconds(5)).until(() -> Scrape.now().count(IN_FLIGHT) == 0);
    }

    /** One more byte of a dribble; a closed connection ends the schedule. */
    private static void send(RawHttp http, byte[] bytes) {
        try {
            http.send(bytes);
        } catch (IOException closed) {
            throw new IllegalStateException(closed);
        }
    }

    private static void assertBusy(Answer answer) {
        assertEquals(503, answer.status());
        assertNotNull(answer.header("Retry-After"));
        assertTrue(Integer.parseInt(answer.header("Retry-After")) >= 1);
        JsonObject reply = new JsonObject(answer.body());
        assertEquals("unavailable", reply.getString("status"));
        assertEquals("replica_busy", reply.getString("reason"));
    }

    private static byte[] body(int size, char fill) {
        byte[] body = new byte[size];
        Arrays.fill(body, (byte) fill);
        return body;
    }

    private static String signature(byte[] body) {
        return "X-Signature: " + Signed.signature(SECRET, body);
    }
}
