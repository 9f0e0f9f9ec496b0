package io.webhookbuffer.metrics;

import static io.webhookbuffer.testsupport.TestTenants.tenant;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.UUID;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.webhookbuffer.queue.QueueSnapshots;
import io.webhookbuffer.testsupport.Events;
import io.webhookbuffer.testsupport.FakeOrigin;
import io.webhookbuffer.testsupport.FakeOrigin.Answer;
import io.webhookbuffer.testsupport.InjectFakeOrigin;
import io.webhookbuffer.testsupport.Scrape;
import io.webhookbuffer.testsupport.Signed;
import io.webhookbuffer.testsupport.TestTenants;

/**
 * The exported metrics move as an SRE expects through a scripted scenario: send, dedupe, rate-limit, refuse,
 * fail the origin (breaker opens, backlog ages), then refuse the events (dead letters grow, the tenant leaves the
 * top-N gauges). Values are read from /q/metrics as Prometheus scrapes them; counters are compared before/after.
 */
@QuarkusTest
@TestProfile(MetricsProfile.class)
class MetricsScenarioTests {

    private static final Duration PATIENCE = Duration.ofSeconds(30);
    private static final String INGEST = MetricNames.INGEST.prometheus();
    private static final String DELIVERY = MetricNames.DELIVERY.prometheus();

    @InjectFakeOrigin
    FakeOrigin origin;

    @Inject
    QueueSnapshots snapshots;

    @Inject
    StateMeters meters;

    @Test
    void metricsFollowIngestFailureAndDeadLetters() {
        String t = tenant().rateLimit(2, 600).provision();
        String small = tenant().maxBodyBytes(16).provision();
        origin.answer(t, batch -> Answer.status(503));
        Scrape before = Scrape.now();

        Events.post(t, "m-1").then().statusCode(202);
        Events.post(t, "m-1").then().statusCode(200);
        Events.post(t, "m-2").then().statusCode(202);
        Events.post(t, "m-3").then().statusCode(429);
        Events.post(t, "m-4", "not-the-secret").then().statusCode(401);
        Events.post("nobody-" + UUID.randomUUID().toString().substring(0, 8), "m-5", "x").then().statusCode(404);
        Signed.webhook(TestTenants.DEFAULT_SECRET, "{\"far\":\"more than sixteen bytes\"}")
                .post("/webhook/" + small).then().statusCode(413);

        Scrape after = Scrape.now();
        for (var expected : new Object[][] { { "buffered", 2 }, { "deduplicated", 1 }, { "rate_limited", 1 },
                { "bad_signature", 1 }, { "unknown_tenant", 1 }, { "too_large", 1 }, { "unavailable", 0 } }) {
            String outcome = (String) expected[0];
            assertEquals((int) expected[1], after.count(INGEST, "outcome", outcome) - before.count(INGEST, "outcome", outcome),
                    "buffer_ingest_total{outcome=" + outcome + "}");
        }
        String ackCount = MetricNames.INGEST_ACK.prometheus() + "_count";
        assertEquals(2, after.count(ackCount, "outcome", "buffered") - before.count(ackCount, "outcome", "buffered"));
        assertTrue(after.count(MetricNames.COMMIT_BATCH_SIZE.prometheus() + "_count")
                > before.count(MetricNames.COMMIT_BATCH_SIZE.prometheus() + "_count"), "group commits recorded");

        // The origin fails: attempts are counted as failed, the breaker opens, the backlog stays and ages.
        await().atMost(PATIENCE).until(() -> Scrape.now().count(DELIVERY, "outcome", "failed")
                > before.count(DELIVERY, "outcome", "failed"));
        await().atMost(PATIENCE).until(() -> {
            meters.publish();
            Scrape s = Scrape.now();
            return s.count(DELIVERY, "outcome", "circuit_open") > before.count(DELIVERY, "outcome", "circuit_open")
                    && s.count(MetricNames.CIRCUITS_OPEN.prometheus()) >= 1
                    && s.value(MetricNames.CIRCUIT_OPEN.prometheus(), "origin", origin.baseUrl()) != null;
        });
        await().atMost(PATIENCE).until(() -> {
            snapshots.refresh().await().indefinitely();
            meters.publish();
            Scrape s = Scrape.now();
            Double age = s.value(MetricNames.TENANT_BACKLOG_OLDEST_AGE.prometheus(), "tenant", t);
            return Double.valueOf(2).equals(s.value(MetricNames.TENANT_BACKLOG_EVENTS.prometheus(), "tenant", t))
                    && age != null && age >= 2
                    && s.count(MetricNames.BACKLOG_EVENTS.prometheus()) >= 2
                    && s.count(MetricNames.BACKLOG_OLDEST_AGE.prometheus()) >= 2;
        });
        assertTrue(Scrape.now().count(MetricNames.DELIVERY_LATENCY.prometheus() + "_count") > 0, "origin latency");

        // The origin now refuses the events: they are dead-lettered, and the tenant leaves the backlog gauges.
        double deadBefore = Scrape.now().count(MetricNames.DEAD_LETTERED.prometheus());
        origin.answer(t, batch -> Answer.status(422));
        await().atMost(PATIENCE).until(() -> Scrape.now().count(MetricNames.DEAD_LETTERED.prometheus()) >= deadBefore + 2);
        Scrape refused = Scrape.now();
        assertTrue(refused.count(DELIVERY, "outcome", "refused") > before.count(DELIVERY, "outcome", "refused"));
        await().atMost(PATIENCE).until(() -> {
            snapshots.refresh().await().indefinitely();
            meters.publish();
            Scrape s = Scrape.now();
            return s.value(MetricNames.TENANT_BACKLOG_EVENTS.prometheus(), "tenant", t) == null
                    && s.value(MetricNames.CIRCUIT_OPEN.prometheus(), "origin", origin.baseUrl()) == null;
        });
        Scrape end = Scrape.now();
        assertTrue(end.count(MetricNames.DEAD_LETTERS.prometheus()) >= 2, "buffer_dead_letters counts the table");
        assertNotNull(end.value(MetricNames.BACKLOG_SNAPSHOT_AGE.prometheus()));
        assertTrue(end.count(MetricNames.BACKLOG_SNAPSHOT_AGE.prometheus()) < 30, "the snapshot is fresh");
    }
}
