package io.webhookbuffer.queue;

import static io.webhookbuffer.testsupport.TestTenants.tenant;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import io.webhookbuffer.metrics.MetricNames;
import io.webhookbuffer.secrets.OwnDatabaseProfile;
import io.webhookbuffer.testsupport.EventKeys;
import io.webhookbuffer.testsupport.Events;
import io.webhookbuffer.testsupport.Scrape;
import io.webhookbuffer.testsupport.Signed;
import io.webhookbuffer.testsupport.TestTenants;

/**
 * The per-tenant storage quota: a tenant whose queued body bytes reached its quota ({@code maxQueuedBytes}, else
 * {@code buffer.queue.max-queued-bytes-per-tenant}) gets {@code 429 rate_limited} ({@code reason: queue_quota}) with
 * {@code Retry-After} for a new event, before anything is written; others are not touched, nothing queued is removed,
 * and once its backlog is gone it is accepted again. Delivery is off in tests, so what is accepted stays queued.
 */
@QuarkusTest
@TestProfile(OwnDatabaseProfile.class)
class QueueQuotaTests {

    private static final int BODY = 1024;

    @Inject
    Pool pool;

    @Inject
    QueueSnapshots snapshots;

    @Inject
    QueuedBytes queued;

    @Test
    void aTenantAtItsQuotaIsRefusedOthersAreNotAndItIsAcceptedAgainOnceDrained() {
        String full = tenant().provision(); // the default quota: 4 bodies of 1 KiB
        String other = tenant().provision();
        for (int i = 0; i < OwnDatabaseProfile.DEFAULT_QUOTA / BODY; i++) {
            Events.accept(full, "e" + i, body("e" + i));
        }
        String ingest = MetricNames.INGEST.prometheus();
        double refused = Scrape.now().count(ingest, "outcome", "queue_quota");
        assertRefused(send(full, "e-over"), "e-over");
        assertEquals(1, Scrape.now().count(ingest, "outcome", "queue_quota") - refused, "counted as queue_quota");
        assertEquals(OwnDatabaseProfile.DEFAULT_QUOTA, queuedBytes(full), "nothing queued was removed or added");
        send(full, "e0").then().statusCode(200).body("status", equalTo("deduplicated")); // already stored: no room taken

        for (int i = 0; i < 3; i++) {
            Events.accept(other, "o" + i, body("o" + i));
        }

        pool.preparedQuery("DELETE FROM event_queue WHERE tenant_id = $1").execute(Tuple.of(full)).await().indefinitely();
        snapshots.refresh().await().indefinitely();
        Events.accept(full, "e-after", body("e-after"));
    }

    @Test
    void aTenantsOwnQuotaReplacesTheDefaultAndNullRestoresIt() {
        String big = tenant().maxQueuedBytes(8 * BODY).provision();
        Signed.command("").get("/control/tenants/" + big).then().statusCode(200).body("maxQueuedBytes", equalTo(8 * BODY));
        for (int i = 0; i < 8; i++) {
            Events.accept(big, "b" + i, body("b" + i));
        }
        assertRefused(send(big, "b-over"), "b-over");

        String small = tenant().maxQueuedBytes(BODY).provision();
        Events.accept(small, "s0", body("s0"));
        assertRefused(send(small, "s1"), "s1");
        Signed.command("{\"maxQueuedBytes\":null}").put("/control/tenants/" + small).then().statusCode(200)
                .body("maxQueuedBytes", nullValue());
        Events.accept(small, "s1", body("s1")); // the default (4 KiB) has room for it

        Signed.command("{\"maxQueuedBytes\":0}").put("/control/tenants/" + small).then().statusCode(400);
    }

    @Test
    void rowsOtherReplicasQueuedCountOnceTheSnapshotHasReadThem() {
        String t = tenant().provision();
        snapshots.refresh().await().indefinitely();
        Scrape before = Scrape.now();
        insert(t, 4, BODY);
        Events.accept(t, "not-read-yet", body("not-read-yet")); // this replica has not read the others' rows yet
        snapshots.refresh().await().indefinitely();
        assertRefused(send(t, "read"), "read");
        assertEquals(5L * BODY, queued.of(t), "the read's figure, nothing of its own stores counted twice");
        // From nothing to 5 KiB of 4: one tenant more in each gauge (read at each snapshot), the rest unchanged.
        Scrape after = Scrape.now();
        for (String gauge : List.of(MetricNames.QUOTA_NEAR_TENANTS.prometheus(), MetricNames.QUOTA_FULL_TENANTS.prometheus())) {
            assertEquals(1, after.count(gauge) - before.count(gauge), gauge);
        }
    }

    @Test
    void pastTheStorageGuardTheLargestBacklogIsRefusedAndTenantsWithinTheirShareAreNot() {
        String largest = tenant().maxQueuedBytes(1L << 30).provision(); // its own quota far above the guard
        String medium = tenant().maxQueuedBytes(1L << 30).provision();
        String small = tenant().provision();
        int mib = 1 << 20;
        String ratio = MetricNames.STORAGE_USED.prometheus();
        snapshots.refresh().await().indefinitely();
        double before = Scrape.now().count(ratio);
        insert(largest, (int) (OwnDatabaseProfile.STORAGE / mib), mib); // the guard's whole capacity on its own
        insert(medium, 2, mib);
        snapshots.refresh().await().indefinitely();
        double used = Scrape.now().count(ratio);
        assertTrue(used > 1, "the gauge says the guard is past: " + used);
        assertEquals((OwnDatabaseProfile.STORAGE + 2.0 * mib) / OwnDatabaseProfile.STORAGE, used - before, 1e-3,
                "buffer_queue_storage_used_ratio grew by the 66 MiB inserted over 64 MiB");

        assertRefused(send(largest, "l-over"), "l-over");
        Events.accept(medium, "m-within", body("m-within")); // 2 MiB: far below its share of 64 MiB
        for (int i = 0; i < 3; i++) {
            Events.accept(small, "s" + i, body("s" + i));
        }

        pool.preparedQuery("DELETE FROM event_queue WHERE tenant_id = ANY($1)")
                .execute(Tuple.of(new String[] {largest, medium})).await().indefinitely();
        snapshots.refresh().await().indefinitely();
        Events.accept(largest, "l-after", body("l-after")); // its backlog delivered: accepted again
    }

    private void insert(String tenantId, int rows, int bytes) {
        pool.preparedQuery("""
                INSERT INTO event_queue (tenant_id, event_id, body, content_type, received_at, next_attempt_at)
                SELECT $1, 'inserted-' || i, convert_to(repeat('x', $2), 'UTF8'), 'application/json', now(), now()
                FROM generate_series(1, $3) i""").execute(Tuple.of(tenantId, bytes, rows)).await().indefinitely();
    }

    private static void assertRefused(Response answer, String eventId) {
        answer.then().statusCode(429).header("Retry-After", "30")
                .body("status", equalTo("rate_limited")).body("reason", equalTo("queue_quota"))
                .body("eventId", equalTo(EventKeys.bound(eventId, body(eventId))));
    }

    /** {@code {"id":"<eventId>","pad":"xxx..."}}, exactly {@link #BODY} bytes. */
    private static String body(String eventId) {
        String head = "{\"id\":\"" + eventId + "\",\"pad\":\"";
        return head + "x".repeat(BODY - head.length() - 2) + "\"}";
    }

    private static Response send(String tenantId, String eventId) {
        return Signed.webhook(TestTenants.DEFAULT_SECRET, body(eventId))
                .header("X-Event-ID", eventId).post("/webhook/" + tenantId);
    }

    private long queuedBytes(String tenantId) {
        return pool.preparedQuery("SELECT coalesce(sum(octet_length(body)), 0) FROM event_queue WHERE tenant_id = $1")
                .execute(Tuple.of(tenantId)).await().indefinitely().iterator().next().getLong(0);
    }
}
