package io.webhookbuffer.controlplane;

import static io.webhookbuffer.testsupport.TestTenants.tenant;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;
import java.util.UUID;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.path.json.JsonPath;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import io.webhookbuffer.cli.BufferCtl;
import io.webhookbuffer.testsupport.Signed;
import io.webhookbuffer.testsupport.TestTenants;

/**
 * "Where is my event?" against the real database: events sent through the ingest path (delivery is off in this
 * profile, so they stay queued), then moved the way the drainer moves them (deleted by id when delivered, moved to
 * dead_letters when refused), and asked for by the provider's id (generic {@code X-Event-ID} is not covered by the
 * signature, so it is stored bound to the body) and by the id the origin receives.
 */
@QuarkusTest
class EventLookupTests {

    @Inject
    Pool pool;

    private static String send(String tenant, String providerId) {
        Signed.webhook(TestTenants.DEFAULT_SECRET, "{\"n\":\"" + providerId + "\"}").header("X-Event-ID", providerId)
                .post("/webhook/" + tenant).then().statusCode(202);
        return providerId;
    }

    private static JsonPath find(String tenant, String eventId, int status) {
        return Signed.command("").get("/control/tenants/" + tenant + "/events/" + eventId).then().statusCode(status)
                .extract().jsonPath();
    }

    private String storedId(String tenant, String providerId) {
        return pool.preparedQuery("SELECT event_id FROM processed_events WHERE tenant_id = $1 AND event_id LIKE $2")
                .execute(Tuple.of(tenant, providerId + ":%")).await().indefinitely().iterator().next()
                .getString("event_id");
    }

    @Test
    void aQueuedEventShowsItsPlaceAttemptsAndLastError() {
        String t = tenant().provision();
        send(t, "evt-1");
        send(t, "evt-2");
        String third = send(t, "evt-3");
        pool.preparedQuery("UPDATE event_queue SET attempts = 2, last_error = 'HTTP 503' WHERE tenant_id = $1 "
                + "AND event_id LIKE 'evt-3:%'").execute(Tuple.of(t)).await().indefinitely();

        JsonPath found = find(t, third, 200);
        assertEquals("queued", found.getString("state"));
        assertEquals(1, found.getList("events").size());
        assertEquals(storedId(t, third), found.getString("events[0].eventId"), "the id the origin will receive");
        assertEquals(3, found.getInt("events[0].queue.position"), "two events are ahead of it");
        assertEquals(2, found.getInt("events[0].queue.attempts"));
        assertEquals("HTTP 503", found.getString("events[0].queue.lastError"));
        assertTrue(found.getString("events[0].receivedAt") != null && found.getString("events[0].queue.nextAttemptAt")
                != null, found.prettify());

        // Asked by the stored id, the same event.
        assertEquals("queued", find(t, storedId(t, third), 200).getString("state"));
    }

    @Test
    void aDeliveredEventIsAcceptedAndNoLongerQueued() {
        String t = tenant().provision();
        String id = send(t, "evt-d");
        pool.preparedQuery("DELETE FROM event_queue WHERE tenant_id = $1 AND id IN (SELECT id FROM event_queue "
                + "WHERE tenant_id = $1)").execute(Tuple.of(t)).await().indefinitely();
        JsonPath found = find(t, id, 200);
        assertEquals("delivered", found.getString("state"));
        assertNull(found.get("events[0].queue"));
        assertTrue(found.getString("events[0].receivedAt") != null, "received when: the dedupe record");
    }

    @Test
    void aDeadLetteredEventShowsItsDeadLetterAndReason() {
        String t = tenant().provision();
        String id = send(t, "evt-x");
        long deadId = pool.preparedQuery("""
                WITH moved AS (DELETE FROM event_queue WHERE tenant_id = $1 AND id IN (
                    SELECT id FROM event_queue WHERE tenant_id = $1) RETURNING *)
                INSERT INTO dead_letters (tenant_id, event_id, body, content_type, headers, received_at, attempts,
                    last_status, last_error)
                SELECT tenant_id, event_id, body, content_type, headers, received_at, 1, 400, 'HTTP 400: bad field'
                FROM moved RETURNING id""").execute(Tuple.of(t)).await().indefinitely().iterator().next().getLong("id");
        JsonPath found = find(t, id, 200);
        assertEquals("dead_lettered", found.getString("state"));
        assertEquals(deadId, found.getLong("events[0].deadLetter.id"), "the id dead-letters get/replay take");
        assertEquals(400, found.getInt("events[0].deadLetter.lastStatus"));
        assertEquals("HTTP 400: bad field", found.getString("events[0].deadLetter.lastError"));
    }

    @Test
    void anIdNobodySentIsUnknownAndAnUnknownTenantIsNotFound() {
        String t = tenant().provision();
        send(t, "evt-1");
        JsonPath unknown = find(t, "evt-never", 200);
        assertEquals("unknown", unknown.getString("state"));
        assertEquals(0, unknown.getList("events").size());
        // A prefix of a provider id, or one with a LIKE wildcard (_ for the -), matches nothing: only the whole provider id does.
        assertEquals("unknown", find(t, "evt-", 200).getString("state"));
        assertEquals("unknown", find(t, "evt_1", 200).getString("state"));
        find("no-such-" + UUID.randomUUID().toString().substring(0, 8), "evt-1", 404);
    }

    @Test
    void aLongIdIsLookedUpByTheFormItIsStoredIn() {
        String t = tenant().provision();
        String id = send(t, "L".repeat(300));
        assertEquals("queued", find(t, id, 200).getString("state"));
    }

    @Test
    void bufferctlFindPrintsWhereTheEventIs() {
        String t = tenant().provision();
        String id = send(t, "evt with space");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = BufferCtl.run(new String[] { "find", t, id, "--json" }, new PrintWriter(out), new PrintWriter(err),
                Map.of("BUFFERCTL_URL", "http://localhost:" + RestAssured.port, "BUFFERCTL_SECRET",
                        Signed.CONTROL_SECRET));
        assertEquals(BufferCtl.OK, code, err.toString());
        assertEquals("queued", JsonPath.from(out.toString()).getString("state"), out.toString());

        StringWriter human = new StringWriter();
        assertEquals(BufferCtl.OK, BufferCtl.run(new String[] { "find", t, "evt-never" }, new PrintWriter(human),
                new PrintWriter(new StringWriter()), Map.of("BUFFERCTL_URL", "http://localhost:" + RestAssured.port,
                        "BUFFERCTL_SECRET", Signed.CONTROL_SECRET)));
        assertTrue(human.toString().contains("state: unknown"), human.toString());
    }
}
