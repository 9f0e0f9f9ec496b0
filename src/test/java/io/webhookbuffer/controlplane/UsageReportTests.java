package io.webhookbuffer.controlplane;

import static io.webhookbuffer.testsupport.TestTenants.tenant;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

import jakarta.inject.Inject;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import io.webhookbuffer.demo.DemoControlPlane;
import io.webhookbuffer.testsupport.Db;
import io.webhookbuffer.testsupport.FakeOrigin;
import io.webhookbuffer.testsupport.InjectControlPlane;
import io.webhookbuffer.testsupport.InjectFakeOrigin;
import io.webhookbuffer.testsupport.Events;
import io.webhookbuffer.testsupport.Signed;
import io.webhookbuffer.usage.BillingPeriod;
import io.webhookbuffer.usage.UsageCounters;
import io.webhookbuffer.usage.UsageFlusher;
import io.webhookbuffer.usage.UsageMetric;
import io.webhookbuffer.usage.UsageStore;

/** Usage snapshots pushed to the real demo control plane from the real app, PostgreSQL and fake origin. */
@QuarkusTest
@TestProfile(ControlPlaneProfile.class)
class UsageReportTests {

    private static final Duration PATIENCE = Duration.ofSeconds(20);

    @InjectControlPlane
    DemoControlPlane plane;

    @InjectFakeOrigin
    FakeOrigin origin;

    @Inject
    UsageReporter reporter;

    @Inject
    UsageStore store;

    @Inject
    UsageFlusher flusher;

    @Inject
    Pool pool;

    @BeforeEach
    void noUsageOfEarlierTests() {
        Db.removeUsage(pool); // else each report() here pushes every earlier test's tenant too
    }

    @Test
    void snapshotCountsEveryAnswerAndIsIdenticalWhenPushedTwice() {
        String t = tenant().rateLimit(3, 3600).senderRetries("long").provision();
        int bytes = 0;
        for (String id : new String[] { "u1", "u2", "u3" }) {
            Events.accept(t, id);
            bytes += Events.bodyBytes(id);
        }
        Events.post(t, "u1").then().statusCode(200); // a duplicate
        Events.post(t, "u4").then().statusCode(429); // over the limit
        Signed.webhook("not-the-secret", "{}").post("/webhook/" + t).then().statusCode(401);
        await().atMost(PATIENCE).until(() -> origin.providerIds(t).size() == 3);
        await().atMost(PATIENCE).until(() -> queued(t) == 0);

        assertEquals(0, reporter.report().await().atMost(PATIENCE).failed());
        assertEquals(0L, plane.stats().get("v2Pushes"), "pushes are signed in the seed's v1 by default");
        assertTrue(plane.stats().get("v1Pushes") > 0, plane.stats().toString());
        String periodKey = BillingPeriod.containing(null, "monthly", OffsetDateTime.now(ZoneOffset.UTC)).periodKey();
        JsonNode first = plane.snapshot(t, periodKey);
        assertNotNull(first, "snapshot received for " + periodKey);
        JsonNode m = first.get("metrics");
        assertEquals(6, m.get("received").asLong());
        assertEquals(3, m.get("accepted").asLong());
        assertEquals(1, m.get("deduplicated").asLong());
        assertEquals(1, m.get("rateLimited").asLong());
        assertEquals(1, m.get("rejectedSignature").asLong());
        assertEquals(3, m.get("delivered").asLong());
        assertEquals(0, m.get("deadLettered").asLong());
        assertEquals(bytes, m.get("bytesAccepted").asLong());
        assertEquals("monthly", first.at("/period/cadence").asText());
        assertEquals(periodKey, "billing_anchor:" + first.at("/period/startsAt").asText());

        reporter.report().await().atMost(PATIENCE);
        assertEquals(1, plane.snapshots(t).size(), "one stored snapshot per (tenantId, periodKey)");
        assertEquals(m, plane.snapshot(t, periodKey).get("metrics"), "the same state after a second push");
    }

    @Test
    void aTenantsOwnBillingAnchorAndCadenceDefineThePeriod() {
        String t = tenant().provision();
        Signed.command("{\"billingAnchor\":\"2026-01-15T06:00:00Z\",\"billingCadence\":\"weekly\"}")
                .put("/control/tenants/" + t).then().statusCode(200);
        Events.accept(t, "anchored");
        reporter.report().await().atMost(PATIENCE);
        BillingPeriod period = BillingPeriod.containing(OffsetDateTime.parse("2026-01-15T06:00:00Z"), "weekly",
                OffsetDateTime.now(ZoneOffset.UTC));
        JsonNode snapshot = plane.snapshot(t, period.periodKey());
        assertNotNull(snapshot);
        assertEquals("weekly", snapshot.at("/period/cadence").asText());
        assertEquals(1, snapshot.at("/metrics/accepted").asLong());
        Signed.command("{\"billingAnchor\":\"2026-01-15T06:30:00Z\"}").put("/control/tenants/" + t).then()
                .statusCode(400);
    }

    @Test
    void aFailedPushIsNotQueuedAndTheNextRunSendsTheWholePeriod() {
        String t = tenant().provision();
        Events.accept(t, "f1");
        plane.answer(503);
        try {
            UsageReporter.Report report = reporter.report().await().atMost(PATIENCE);
            assertTrue(report.failed() >= 1, "the push failed");
        } finally {
            plane.answer(200);
        }
        String periodKey = BillingPeriod.containing(null, "monthly", OffsetDateTime.now(ZoneOffset.UTC)).periodKey();
        long posts = plane.stats().get("usagePosts");
        // Nothing retries on its own: no push arrives until the next run.
        await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(3))
                .until(() -> plane.stats().get("usagePosts") == posts && plane.snapshot(t, periodKey) == null);
        Events.accept(t, "f2");
        reporter.report().await().atMost(PATIENCE);
        assertEquals(2, plane.snapshot(t, periodKey).at("/metrics/accepted").asLong(), "a full snapshot, not a delta");
    }

    /**
     * The counts live in PostgreSQL, not in a replica's memory: two replicas' counters (this app's and a second,
     * separate set flushed to the same database) add up, and the snapshot is the sum of the stored hours.
     */
    @Test
    void countsAreDurableAndAddUpAcrossReplicas() {
        String t = tenant().provision();
        Events.accept(t, "r1");
        flusher.flush().await().atMost(PATIENCE);
        assertEquals(1L, storedAccepted(t), "flushed to PostgreSQL");

        UsageCounters otherReplica = new UsageCounters();
        otherReplica.add(t, UsageMetric.ACCEPTED, 5);
        otherReplica.add(t, UsageMetric.RECEIVED, 5);
        new UsageFlusher(otherReplica, store).flush().await().atMost(PATIENCE);
        assertEquals(6L, storedAccepted(t), "additive upsert: the other replica's counts add, never overwrite");
        assertTrue(otherReplica.drain().isEmpty(), "flushed counts leave memory");

        reporter.report().await().atMost(PATIENCE);
        String periodKey = BillingPeriod.containing(null, "monthly", OffsetDateTime.now(ZoneOffset.UTC)).periodKey();
        assertEquals(6, plane.snapshot(t, periodKey).at("/metrics/accepted").asLong());
        assertEquals(6, plane.snapshot(t, periodKey).at("/metrics/received").asLong());
        assertNull(plane.snapshot(t, "billing_anchor:1999-01-01T00:00:00.000Z"));
    }

    private long storedAccepted(String t) {
        return pool.preparedQuery("SELECT coalesce(sum(accepted), 0) FROM usage_buckets WHERE tenant_id = $1")
                .execute(Tuple.of(t)).await().indefinitely().iterator().next().getLong(0);
    }

    private long queued(String t) {
        return Db.queued(pool, t);
    }
}
