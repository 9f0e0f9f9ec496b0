package io.webhookbuffer.queue;

import static io.restassured.RestAssured.given;
import static io.webhookbuffer.testsupport.TestTenants.tenant;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import io.vertx.mutiny.sqlclient.Pool;
import io.webhookbuffer.actor.TenantActors;
import io.webhookbuffer.common.Hmac;
import io.webhookbuffer.metrics.MetricNames;
import io.webhookbuffer.testsupport.Db;
import io.webhookbuffer.testsupport.EventKeys;
import io.webhookbuffer.testsupport.Scrape;
import io.webhookbuffer.testsupport.Signed;
import io.webhookbuffer.testsupport.TestTenants;

/**
 * One tenant's event can never fail the other events of its group commit. The events of a test are made to share one
 * commit: a first event's commit is held in PostgreSQL (its dedupe key is locked by an open transaction of the test)
 * while the others queue behind it; released, it commits alone and the others all go in the next commit.
 */
@QuarkusTest
class GroupCommitIsolationTests {

    private static final String SECRET = TestTenants.DEFAULT_SECRET;
    private static final int NEIGHBOURS = 8;
    private static final String INGEST = MetricNames.INGEST.prometheus();

    @Inject
    Pool pool;

    @Inject
    AgroalDataSource jdbc; // the test's own connections, outside the pool the app commits through

    @Inject
    TenantActors actors;

    @Inject
    GroupCommitWriter writer;

    @Test
    void aStripeEventWithANulInItsIdIsStoredAndItsNeighboursToo() throws Exception {
        String stripe = tenant().provider("stripe").provision();
        List<String> neighbours = neighbours();
        String body = "{\"id\":\"evt_nul\\u0000here\",\"type\":\"charge.succeeded\"}";

        List<Response> answers = inOneCommit(sends(neighbours, () -> stripe(body).post("/webhook/" + stripe)));

        assertAllStored(neighbours, answers.subList(0, NEIGHBOURS));
        Response poison = answers.get(NEIGHBOURS);
        assertEquals(202, poison.statusCode(), poison.asString());
        String key = poison.jsonPath().getString("eventId");
        assertTrue(key.startsWith("sha256:"), "an id PostgreSQL text cannot hold is replaced by its hash: " + key);
        assertEquals(1, Db.queued(pool, stripe));
        Response retry = stripe(body).post("/webhook/" + stripe);
        assertEquals(200, retry.statusCode(), "the same id maps to the same key: the retry is a duplicate");
        assertEquals(key, retry.jsonPath().getString("eventId"));
    }

    @Test
    void anEventPostgresRefusesIsAnswered422AndEveryNeighbourIsStored() throws Exception {
        List<String> neighbours = neighbours();
        String refusing = tenant().provision();
        String refused = "refused-by-test-" + UUID.randomUUID();
        // A constraint this event breaks: the stand-in for any data PostgreSQL refuses that the ingress did not catch.
        String constraint = "test_refuses_" + refused.substring(16).replace("-", "");
        execute("ALTER TABLE event_queue ADD CONSTRAINT " + constraint + " CHECK (event_id <> '" + key(refused)
                + "') NOT VALID");
        try {
            double refusedBefore = Scrape.now().count(INGEST, "outcome", "not_storable");
            List<Response> answers = inOneCommit(sends(neighbours, () -> generic(refusing, refused)));

            assertAllStored(neighbours, answers.subList(0, NEIGHBOURS));
            Response poison = answers.get(NEIGHBOURS);
            assertEquals(422, poison.statusCode(), poison.asString());
            assertEquals("not_storable", poison.jsonPath().getString("status"));
            assertEquals(key(refused), poison.jsonPath().getString("eventId"));
            assertEquals(0, Db.queued(pool, refusing));
            assertEquals(0, Db.dedupeRows(pool, refusing), "nothing left behind that would look like a duplicate");
            generic(refusing, refused).then().statusCode(422); // refused again on its own, never "deduplicated"
            assertEquals(2, Scrape.now().count(INGEST, "outcome", "not_storable") - refusedBefore);
        } finally {
            execute("ALTER TABLE event_queue DROP CONSTRAINT " + constraint);
        }
    }

    @Test
    void idsWithUnpairedSurrogatesAreDistinctEventsEachStoredOnce() {
        String stripe = tenant().provider("stripe").provision();
        Set<String> keys = new HashSet<>();
        // Three ids a lossy encoding would all turn into "evt_?": each is its own event, and each answered 202.
        for (String id : List.of("evt_\\ud800", "evt_\\udc00", "evt_?")) {
            String body = "{\"id\":\"" + id + "\",\"type\":\"charge.succeeded\"}";
            Response first = stripe(body).post("/webhook/" + stripe);
            assertEquals(202, first.statusCode(), id + ": " + first.asString());
            keys.add(first.jsonPath().getString("eventId"));
            stripe(body).post("/webhook/" + stripe).then().statusCode(200);
        }
        assertEquals(3, keys.size(), keys.toString());
        assertTrue(keys.contains("evt_?"), "a storable id is kept as it is");
        assertEquals(3, Db.queued(pool, stripe));
    }

    @Test
    void aNulInAHeaderNeverReachesTheStatement() {
        // Headers carry the content type, the forwarded headers and most providers' ids. The HTTP server refuses a
        // control character in any header (400, before the endpoint runs) and reads every other byte as one
        // ISO-8859-1 character, so of all that goes into text and jsonb columns only a body's id needs normalising.
        String t = tenant().provision();
        for (String header : List.of("User-Agent: agent\0x", "Content-Type: application/json;x=\0", "X-Event-ID: e\0")) {
            String answer = raw(t, header);
            assertTrue(answer.startsWith("HTTP/1.1 400 "), header + " -> " + answer);
        }
        assertTrue(raw(t, "User-Agent: \u00e9\u00ff\u0080").startsWith("HTTP/1.1 202 "), "other bytes are text");
        assertEquals(1, Db.queued(pool, t));
    }

    // --- one commit for many events

    private static List<String> neighbours() {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < NEIGHBOURS; i++) {
            ids.add(tenant().provision());
        }
        return ids;
    }

    /** One event for each neighbour tenant, then the one under test. */
    private static List<Supplier<Response>> sends(List<String> neighbours, Supplier<Response> underTest) {
        List<Supplier<Response>> sends = new ArrayList<>();
        for (String t : neighbours) {
            sends.add(() -> generic(t, "neighbour-" + t));
        }
        sends.add(underTest);
        return sends;
    }

    /**
     * Sends every request while a commit is held in PostgreSQL, so that all of them are queued for the next commit
     * when it is released, and returns their answers in order.
     */
    private List<Response> inOneCommit(List<Supplier<Response>> sends) throws Exception {
        String holder = tenant().provision();
        long commitsBefore;
        CompletableFuture<Response> held;
        List<CompletableFuture<Response>> answers = new ArrayList<>();
        try (Connection lock = jdbc.getConnection()) {
            lock.setAutoCommit(false);
            try (PreparedStatement st = lock.prepareStatement(
                    "INSERT INTO processed_events (tenant_id, event_id, received_at) VALUES (?, ?, now())")) {
                st.setString(1, holder);
                st.setString(2, key("held"));
                st.executeUpdate();
            }
            commitsBefore = writer.stats().commits();
            held = CompletableFuture.supplyAsync(() -> generic(holder, "held"));
            await().atMost(Duration.ofSeconds(3)).until(() -> waitingOnALock() == 1);
            for (Supplier<Response> send : sends) {
                answers.add(CompletableFuture.supplyAsync(send));
            }
            await().atMost(Duration.ofSeconds(3)).until(() -> actors.mailboxDepth() == 1 + sends.size());
            lock.rollback(); // the held commit goes on; the others are all queued for the next one
        }
        assertEquals(202, held.get().statusCode(), held.get().asString());
        List<Response> out = new ArrayList<>();
        for (CompletableFuture<Response> answer : answers) {
            out.add(answer.get());
        }
        assertEquals(2, writer.stats().commits() - commitsBefore, "the held commit, then one for all the others");
        return out;
    }

    private void assertAllStored(List<String> neighbours, List<Response> answers) {
        for (int i = 0; i < neighbours.size(); i++) {
            assertEquals(202, answers.get(i).statusCode(), "neighbour " + i + ": " + answers.get(i).asString());
            assertEquals(1, Db.queued(pool, neighbours.get(i)), "neighbour " + i + " is stored");
        }
    }

    private int waitingOnALock() {
        return (int) Db.count(jdbc, "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                + " AND wait_event_type = 'Lock' AND query LIKE '%processed_events%'");
    }

    private void execute(String sql) throws Exception {
        try (Connection c = jdbc.getConnection(); Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    private static Response generic(String tenantId, String eventId) {
        return Signed.webhook(SECRET, body(eventId)).header("X-Event-ID", eventId).post("/webhook/" + tenantId);
    }

    private static String body(String eventId) {
        return "{\"id\":\"" + eventId + "\"}";
    }

    /** The key {@link #generic} stores: its X-Event-ID bound to its body. */
    private static String key(String eventId) {
        return EventKeys.bound(eventId, body(eventId));
    }

    /** A signed generic request with one extra header line, written byte for byte; the answer's text. */
    private static String raw(String tenantId, String headerLine) {
        byte[] body = ("{\"raw\":" + System.nanoTime() + "}").getBytes(StandardCharsets.UTF_8);
        String head = "POST /webhook/" + tenantId + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
                + "X-Signature: " + Signed.signature(SECRET, body) + "\r\n" + headerLine + "\r\n"
                + "Content-Length: " + body.length + "\r\n\r\n";
        try (Socket s = new Socket("127.0.0.1", RestAssured.port)) {
            s.getOutputStream().write(head.getBytes(StandardCharsets.ISO_8859_1));
            s.getOutputStream().write(body);
            ByteArrayOutputStream answer = new ByteArrayOutputStream();
            try {
                s.getInputStream().transferTo(answer);
            } catch (SocketException reset) {
                // the server closed after answering
            }
            return answer.toString(StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A Stripe delivery signed now: {@code Stripe-Signature: t=<ts>,v1=<hex HMAC of "ts.body">}. */
    private static RequestSpecification stripe(String body) {
        String ts = Long.toString(System.currentTimeMillis() / 1000);
        byte[] raw = body.getBytes(StandardCharsets.UTF_8);
        String v1 = HexFormat.of().formatHex(Hmac.hmacSha256(SECRET, (ts + ".").getBytes(StandardCharsets.UTF_8), raw));
        return given().header("Stripe-Signature", "t=" + ts + ",v1=" + v1).contentType("application/json").body(raw);
    }
}
