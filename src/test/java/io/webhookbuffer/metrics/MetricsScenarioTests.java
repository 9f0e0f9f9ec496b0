package io.webhookbuffer.metrics;

import static io.webhookbuffer.testsupport.TestTenants.tenant;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.webhookbuffer.queue.QueueSnapshots;
import io.webhookbuffer.testsupport.Db;
import io.webhookbuffer.testsupport.Events;
import io.webhookbuffer.testsupport.FakeOrigin;
import io.webhookbuffer.testsupport.FakeOrigin.Answer;
import io.webhookbuffer.testsupport.InjectFakeOrigin;
import io.webhookbuffer.testsupport.RawHttp;
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
    private static final String REFUSALS = MetricNames.INGRESS_REFUSALS.prometheus();

    @InjectFakeOrigin
    FakeOrigin origin;

    @Inject
    QueueSnapshots snapshots;

    @Inject
    StateMeters meters;

    @Inject
    AgroalDataSource jdbc;

    @Test
    void metricsFollowIngestFailureAndDeadLetters() {
        String t = tenant().rateLimit(2, 600).senderRetries("long").provision();
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
        assertCommitted(before, after);

        // The origin fails: attempts are counted as failed, the breaker opens, the backlog stays and ages.
        await().atMost(PATIENCE).until(() -> Scrape.now().count(DELIVERY, "outcome", "failed")
                > before.count(DELIVERY, "outcome", "failed"));
        assertTrue(moved(before, Scrape.now(), MetricNames.FAILED_BATCHES.prometheus()) >= 1, "a failed batch counted");
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
                    && s.count(MetricNames.BACKLOG_OLDEST_AGE.prometheus()) >= 2
                    && s.count(MetricNames.BACKLOG_TENANTS.prometheus()) == queuedTenants();
        });
        assertTrue(Scrape.now().count(MetricNames.BACKLOG_TENANTS.prometheus()) >= 1, "t has a backlog");
        assertTrue(moved(before, Scrape.now(), MetricNames.DELIVERY_LATENCY.prometheus() + "_count") >= 1,
                "the failed attempts' answer times");

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
        assertEquals(deadLetters(), end.count(MetricNames.DEAD_LETTERS.prometheus()), "buffer_dead_letters counts the table");
        assertTrue(moved(before, end, MetricNames.DEAD_LETTERS.prometheus()) >= 2, "with t's two");
        assertNotNull(end.value(MetricNames.BACKLOG_SNAPSHOT_AGE.prometheus()));
        assertTrue(end.count(MetricNames.BACKLOG_SNAPSHOT_AGE.prometheus()) < 30, "the snapshot is fresh");
    }

    /**
     * The edge's refusals are counted by reason (a doubled Host, too many header lines), and a body large enough for
     * the verification pool counts as offloaded once, forged or genuine (MACed once: a genuine one is not verified
     * again after the gate's check, and a forged one's check counts too); an ordinary 202 moves neither.
     */
    @Test
    void edgeRefusalsAreCountedByReasonAndOffloadedVerificationsCounted() throws IOException {
        String t = tenant().maxBodyBytes(1024 * 1024).provision();
        Scrape before = Scrape.now();
        Events.post(t, "edge-1").then().statusCode(202);
        assertEquals(1, moved(before, Scrape.now(), MetricNames.ACTORS_LIVE.prometheus()), "t's actor is in memory");
        try (RawHttp http = RawHttp.open()) {
            http.send(RawHttp.head("POST /webhook/" + t, "Host: 127.0.0.1", "Host: 127.0.0.2", "Content-Length: 2"));
            assertEquals(400, http.answer(Duration.ofSeconds(5)).status());
        }
        List<String> headers = new ArrayList<>(List.of("Host: 127.0.0.1", "Content-Length: 2"));
        for (int i = 0; i < 120; i++) {
            headers.add("X-Filler-" + i + ": x");
        }
        try (RawHttp http = RawHttp.open()) {
            http.send(RawHttp.head("POST /webhook/" + t, headers.toArray(String[]::new)));
            assertEquals(431, http.answer(Duration.ofSeconds(5)).status());
        }
        byte[] big = ("{\"id\":\"edge-big\",\"pad\":\"" + "x".repeat(100 * 1024) + "\"}")
                .getBytes(StandardCharsets.UTF_8);
        Signed.webhook(TestTenants.DEFAULT_SECRET, big).header("X-Event-ID", "edge-big")
                .post("/webhook/" + t).then().statusCode(202);
        Signed.webhook("not-the-secret", big).header("X-Event-ID", "edge-big")
                .post("/webhook/" + t).then().statusCode(401).body("reason", equalTo("bad_signature"));

        Scrape after = Scrape.now();
        assertEquals(1, after.count(REFUSALS, "reason", "invalid_host") - before.count(REFUSALS, "reason", "invalid_host"));
        assertEquals(1, after.count(REFUSALS, "reason", "too_many_headers")
                - before.count(REFUSALS, "reason", "too_many_headers"));
        assertEquals(0, after.count(REFUSALS, "reason", "lookup_busy") - before.count(REFUSALS, "reason", "lookup_busy"));
        String offloaded = MetricNames.VERIFICATIONS_OFFLOADED.prometheus();
        assertEquals(2, after.count(offloaded) - before.count(offloaded),
                "the genuine and the forged 100 KiB bodies were each verified off the loop, once");
        Signed.webhook(TestTenants.DEFAULT_SECRET, big).header("X-Event-ID", "edge-big")
                .post("/webhook/" + t).then().statusCode(200).body("status", equalTo("deduplicated"));

        // The origin accepts both events: one batch or two, each a success, two events delivered.
        await().atMost(PATIENCE).until(() -> moved(before, Scrape.now(), MetricNames.DELIVERED.prometheus()) >= 2);
        Scrape delivered = Scrape.now();
        assertEquals(2, moved(before, delivered, MetricNames.DELIVERED.prometheus()), "buffer_delivery_delivered_total");
        double successes = delivered.count(DELIVERY, "outcome", "success") - before.count(DELIVERY, "outcome", "success");
        assertTrue(successes >= 1 && successes <= 2, "buffer_delivery_total{outcome=success}: " + successes);
    }

    /** The group commits of a scrape's interval: the two 202s' events, in one commit or two, each timed. */
    private static void assertCommitted(Scrape before, Scrape after) {
        assertEquals(2, moved(before, after, MetricNames.COMMITTED_EVENTS.prometheus()), "the two 202s' events");
        double commits = moved(before, after, MetricNames.COMMITS.prometheus());
        assertTrue(commits >= 1 && commits <= 2, "buffer_queue_commits_total moved by " + commits);
        assertTrue(moved(before, after, MetricNames.COMMIT_SECONDS.prometheus()) > 0, "time spent in commits");
        assertEquals(commits, moved(before, after, MetricNames.COMMIT_LATENCY.prometheus() + "_count"), "each timed");
        assertEquals(commits, moved(before, after, MetricNames.COMMIT_BATCH_SIZE.prometheus() + "_count"), "each sized");
        assertEquals(2, moved(before, after, MetricNames.COMMIT_BATCH_SIZE.prometheus() + "_sum"), "of 2 events");
    }

    private static double moved(Scrape before, Scrape after, String series) {
        return after.count(series) - before.count(series);
    }

    private long queuedTenants() {
        return Db.count(jdbc, "SELECT count(DISTINCT tenant_id) FROM event_queue");
    }

    private long deadLetters() {
        return Db.count(jdbc, "SELECT count(*) FROM dead_letters");
    }
}
