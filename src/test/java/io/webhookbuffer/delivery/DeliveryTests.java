package io.webhookbuffer.delivery;

import static io.webhookbuffer.testsupport.TestTenants.tenant;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.IntStream;

import jakarta.inject.Inject;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import io.webhookbuffer.demo.DemoOrigin;
import io.webhookbuffer.common.Hmac;
import io.webhookbuffer.testsupport.Db;
import io.webhookbuffer.testsupport.EventKeys;
import io.webhookbuffer.testsupport.Events;
import io.webhookbuffer.testsupport.FakeOrigin;
import io.webhookbuffer.testsupport.TestClock;
import io.webhookbuffer.testsupport.FakeOrigin.Answer;
import io.webhookbuffer.testsupport.FakeOriginResource;
import io.webhookbuffer.testsupport.InjectFakeOrigin;
import io.webhookbuffer.testsupport.Signed;
import io.webhookbuffer.testsupport.TestTenants;

/**
 * Delivery to a real HTTP origin (started by the test) from the real app, PostgreSQL and Redis. The timing tests skip
 * the drainer's waits on its clock ({@link TestClock#skipWaits}) and measure gaps on that clock.
 */
@QuarkusTest
@TestProfile(DeliveryProfile.class)
class DeliveryTests {

    private static final Duration PATIENCE = Duration.ofSeconds(20);

    @InjectFakeOrigin
    FakeOrigin origin;

    @Inject
    Pool pool;

    @Inject
    Drainer drainer;

    @Inject
    TestClock clock;

    @BeforeEach
    void stampBatchesOnTheDrainersClock() {
        origin.stampWith(clock::millis);
    }

    @Test
    void eventsArriveInOrderInBatchesWithTheContractHeaders() {
        String t = tenant().provision();
        List<String> sent = IntStream.range(0, 120).mapToObj(i -> "fifo-" + i).toList();
        for (String id : sent) {
            Events.accept(t, id);
        }
        await().atMost(PATIENCE).until(() -> origin.providerIds(t).size() >= 120);
        assertEquals(sent, origin.providerIds(t), "FIFO per tenant, each once");
        for (FakeOrigin.Batch batch : origin.batches(t)) {
            assertTrue(batch.events().size() <= 50, "batch size cap");
            assertEquals(List.of("Bearer " + FakeOriginResource.TOKEN), batch.headers().get("Authorization"));
            String ts = batch.headers().get("X-buffer-timestamp").get(0);
            String expected = HexFormat.of().formatHex(Hmac.hmacSha256(FakeOriginResource.SIGNING_SECRET,
                    (ts + ".").getBytes(StandardCharsets.US_ASCII), batch.body()));
            assertEquals(expected, batch.headers().get("X-buffer-signature").get(0), "batch signature");
        }
        JsonNode first = origin.events(t).get(0);
        assertEquals(t, first.get("tenantId").asText());
        assertEquals("generic", first.get("provider").asText());
        assertEquals("{\"id\":\"fifo-0\"}", first.get("rawBody").asText());
        assertEquals(1, first.get("attempts").asInt());
        await().atMost(PATIENCE).until(() -> Db.queued(pool, t) == 0);
    }

    @Test
    void nonUtf8BodyArrivesAsBase64ByteForByte() {
        String t = tenant().provision();
        byte[] body = new byte[] { (byte) 0xff, (byte) 0xfe, 0, 1, (byte) 0xc3, 0x28 };
        Signed.webhook(TestTenants.DEFAULT_SECRET, body).header("X-Event-ID", "bin").post("/webhook/" + t)
                .then().statusCode(202);
        await().atMost(PATIENCE).until(() -> !origin.events(t).isEmpty());
        JsonNode event = origin.events(t).get(0);
        assertFalse(event.has("rawBody"));
        assertArrayEquals(body, Base64.getDecoder().decode(event.get("rawBodyBase64").asText()));
    }

    @Test
    void outageThenRecoveryDeliversEverythingWithGrowingCappedGaps() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        String t = tenant().provision();
        // Phase 1: the origin's address refuses connections.
        Signed.command("{\"originUrl\":\"http://127.0.0.1:" + closedPort + "\"}").put("/control/tenants/" + t)
                .then().statusCode(200);
        // Sent in parallel so that the first events do not use up their attempts while the last are still sent.
        IntStream.range(0, 30).parallel().forEach(i -> Events.accept(t, "out-" + i, "{\"i\":" + i + "}"));
        // Refused connections never reached the origin: they count no attempts, but each one is a wait.
        skipWaits(t, () -> maxWaits(t) >= 2);
        // Phase 2: the origin answers, with a 503 first, then recovers (well within the attempts allowed).
        AtomicInteger calls = new AtomicInteger();
        origin.answer(t, batch -> calls.incrementAndGet() <= 1 ? Answer.status(503) : Answer.ok());
        Signed.command("{\"originUrl\":null}").put("/control/tenants/" + t).then().statusCode(200);

        skipWaits(t, () -> calls.get() > 1 && Db.queued(pool, t) == 0);
        assertEquals(30, new HashSet<>(origin.providerIds(t)).size(), "every accepted event arrived");
        assertTrue(deadLetters(t).isEmpty(), "nothing dead-lettered: " + deadLetters(t).size());
        List<FakeOrigin.Batch> batches = origin.batches(t);
        long gap = batches.get(1).receivedAtMillis() - batches.get(0).receivedAtMillis();
        assertTrue(gap <= DeliveryProfile.BACKOFF_CAP_MILLIS + 500, "gap under the cap: " + gap);
        // The 503 was at least the third failure: the next delay was drawn from a bound of at least 200 ms
        // (50, 100, 200 ... doubling), so it is at least 100 ms, where a first retry waits 25-50 ms.
        assertTrue(gap >= 95, "gaps grow with attempts: " + gap);
    }

    @Test
    void retryGapsGrowAndStayUnderTheCap() {
        String t = tenant().provision();
        AtomicInteger calls = new AtomicInteger();
        origin.answer(t, batch -> calls.incrementAndGet() <= 5 ? Answer.status(500) : Answer.ok());
        Events.accept(t, "gaps-1", "{}");
        skipWaits(t, () -> calls.get() > 5 && Db.queued(pool, t) == 0);
        List<FakeOrigin.Batch> batches = origin.batches(t);
        List<Long> gaps = new ArrayList<>();
        for (int i = 1; i <= 5; i++) {
            gaps.add(batches.get(i).receivedAtMillis() - batches.get(i - 1).receivedAtMillis());
        }
        for (long gap : gaps) {
            // Slack for a loaded machine: a timer and a request on top of the delay.
            assertTrue(gap <= DeliveryProfile.BACKOFF_CAP_MILLIS + 500, "gap under the cap: " + gaps);
        }
        // Bounds double each failure (50, 100, 200, 400 ms) and each delay is at least half its bound.
        assertTrue(gaps.get(3) >= 190 && gaps.get(4) >= 190, "later gaps are longer: " + gaps);
        assertTrue(gaps.get(0) <= 250, "the first retry is quick (delay 25-50 ms): " + gaps);
    }

    @Test
    void manyTenantsShareTheBulkheadAndNoneIsLeftOut() {
        List<String> tenants = IntStream.range(0, 8).mapToObj(i -> tenant().provision()).toList();
        for (String t : tenants) {
            origin.answer(t, batch -> new Answer(200, Map.of(), "", 150));
            Events.accept(t, "bh-1", "{}");
        }
        await().atMost(PATIENCE).until(() -> tenants.stream().allMatch(t -> origin.providerIds(t).contains("bh-1")));
        // The bulkhead plus the slow lane: a batch unanswered past the slow threshold (200 ms here, a loaded machine
        // may get there) may move to the slow lane and free its slot (SlowLaneTests).
        assertTrue(origin.maxConcurrent() <= 2 * DeliveryProfile.BULKHEAD, "bulkhead held: " + origin.maxConcurrent());
        assertTrue(origin.maxConcurrent() > 1, "deliveries ran in parallel: " + origin.maxConcurrent());
    }

    @Test
    void deliveryRatePacesATenantsBatches() {
        String t = tenant().provision();
        Signed.command("{\"deliveryRate\":20}").put("/control/tenants/" + t).then().statusCode(200)
                .body("deliveryRate", equalTo(20));
        for (int i = 0; i < 60; i++) {
            Events.accept(t, "paced-" + i, "{}");
        }
        skipWaits(t, () -> Db.queued(pool, t) == 0);
        List<FakeOrigin.Batch> batches = origin.batches(t);
        assertTrue(batches.stream().allMatch(b -> b.events().size() <= 20), "at most one second's worth per batch");
        long span = batches.get(batches.size() - 1).receivedAtMillis() - batches.get(0).receivedAtMillis();
        // 60 events at 20/s: the last batch leaves at least 2 s after the first (40 events' worth of time).
        assertTrue(span >= 1900, "paced: " + span + " ms for 60 events");
    }

    @Test
    void poisonEventIsDeadLetteredAndTheRestFlow() {
        String t = tenant().provision();
        origin.answer(t, batch -> batch.events().stream().anyMatch(e -> FakeOrigin.providerId(e).equals("poison"))
                ? new Answer(422, Map.of(), "{\"error\":\"cannot parse\"}", 0)
                : Answer.ok());
        for (int i = 0; i < 10; i++) {
            Events.accept(t, i == 4 ? "poison" : "ok-" + i, "{\"i\":" + i + "}");
        }
        await().atMost(PATIENCE).until(() -> Db.queued(pool, t) == 0);
        List<String> delivered = origin.events(t).stream().map(e -> FakeOrigin.providerId(e))
                .filter(id -> !id.equals("poison")).distinct().toList();
        assertEquals(9, delivered.size(), delivered.toString());
        Row dead = deadLetters(t).get(0);
        assertEquals(EventKeys.bound("poison", "{\"i\":4}"), dead.getString("event_id"));
        assertEquals(422, dead.getInteger("last_status"));
        assertTrue(dead.getString("last_error").contains("cannot parse"), dead.getString("last_error"));
        assertEquals(1, deadLetters(t).size());
    }

    @Test
    void rejectedEventsInA2xxAreDeadLetteredWithTheirReason() {
        String t = tenant().provision();
        String rejected = EventKeys.bound("rej-1", "{\"x\":1}"); // the origin names the eventId it was given
        origin.answer(t, batch -> new Answer(200, Map.of(),
                "{\"rejected\":[{\"eventId\":\"" + rejected + "\",\"reason\":\"unknown customer\"}]}", 0));
        Events.accept(t, "rej-0", "{}");
        Events.accept(t, "rej-1", "{\"x\":1}");
        await().atMost(PATIENCE).until(() -> Db.queued(pool, t) == 0 && deadLetters(t).size() == 1);
        Row dead = deadLetters(t).get(0);
        assertEquals(rejected, dead.getString("event_id"));
        assertTrue(dead.getString("last_error").contains("unknown customer"));
    }

    @Test
    void retryAfterIsHonoured() {
        String t = tenant().provision();
        AtomicInteger calls = new AtomicInteger();
        origin.answer(t, batch -> calls.incrementAndGet() == 1
                ? new Answer(429, Map.of("Retry-After", "1"), "", 0)
                : Answer.ok());
        Events.accept(t, "ra-1", "{}");
        skipWaits(t, () -> origin.batches(t).size() >= 2);
        List<FakeOrigin.Batch> batches = origin.batches(t);
        long gap = batches.get(1).receivedAtMillis() - batches.get(0).receivedAtMillis();
        assertTrue(gap >= 950, "waited at least Retry-After (1 s), not the 50 ms backoff: " + gap);
    }

    @Test
    void failingOriginOfOneTenantDoesNotDelayAnother() {
        String failing = tenant().provision();
        String healthy = tenant().provision();
        origin.answer(failing, batch -> new Answer(500, Map.of(), "", 300));
        for (int i = 0; i < 20; i++) {
            Events.accept(failing, "f-" + i, "{}");
        }
        long start = System.currentTimeMillis();
        Events.accept(healthy, "h-1", "{}");
        await().atMost(Duration.ofSeconds(3)).until(() -> origin.providerIds(healthy).contains("h-1"));
        assertTrue(System.currentTimeMillis() - start < 3000);
    }

    @Test
    void anEventThatFailsAloneWhileTheOriginTakesOthersIsDeadLetteredAndItsNeighboursAreDelivered() {
        String t = tenant().provision();
        // The worst place for a poison: the head of a lone tenant's queue, so every batch holds it until it is alone.
        origin.answer(t, batch -> batch.events().stream().anyMatch(e -> FakeOrigin.providerId(e).equals("p500"))
                ? new Answer(500, Map.of(), "{\"error\":\"crashed\"}", 0)
                : Answer.ok());
        Events.accept(t, "p500", "{}");
        // Traffic goes on meanwhile: the batches behind the held event are the evidence that the origin is healthy.
        AtomicInteger sent = new AtomicInteger();
        await().atMost(PATIENCE).pollInterval(Duration.ofMillis(50)).until(() -> {
            int i = sent.getAndIncrement();
            Events.accept(t, "n-" + i, "{\"i\":" + i + "}");
            return !deadLetters(t).isEmpty();
        });
        await().atMost(PATIENCE).until(() -> Db.queued(pool, t) == 0);
        List<String> delivered = origin.providerIds(t).stream().filter(id -> !id.equals("p500")).distinct().toList();
        assertEquals(IntStream.range(0, sent.get()).mapToObj(i -> "n-" + i).toList(), delivered,
                "every neighbour delivered, in order");
        List<Row> dead = deadLetters(t);
        assertEquals(1, dead.size());
        assertEquals(EventKeys.bound("p500", "{}"), dead.get(0).getString("event_id"));
        assertEquals(500, dead.get(0).getInteger("last_status"));
        assertTrue(dead.get(0).getString("last_error").contains("failed alone " + DeliveryProfile.MAX_ATTEMPTS),
                dead.get(0).getString("last_error"));
    }

    @Test
    void anOutageManyTimesMaxAttemptsTimesTheCapDeadLettersNothingAndDrainsAfterwards() {
        String t = tenant().provision();
        String other = tenant().provision();
        Events.accept(t, "warm", "{}"); // the origin has been seen healthy: the outage starts after a success
        await().atMost(PATIENCE).until(() -> origin.providerIds(t).contains("warm"));
        long outageMillis = 4L * DeliveryProfile.MAX_ATTEMPTS * DeliveryProfile.BACKOFF_CAP_MILLIS;
        long until = clock.millis() + outageMillis;
        // The whole origin fails, with the answers an outage gives: 500s, 502s and 503s, for every tenant.
        AtomicInteger failed = new AtomicInteger();
        Function<FakeOrigin.Batch, Answer> outage = batch -> {
            if (clock.millis() >= until) {
                return Answer.ok();
            }
            int n = failed.incrementAndGet();
            return Answer.status(n % 3 == 0 ? 503 : n % 3 == 1 ? 500 : 502);
        };
        origin.answer(t, outage);
        origin.answer(other, outage);
        for (int i = 0; i < 20; i++) {
            Events.accept(t, "o-" + i, "{\"i\":" + i + "}");
            Events.accept(other, "o-" + i, "{\"i\":" + i + "}");
        }
        clock.skipWaits(drainer::view, List.of(t, other), Duration.ofMillis(outageMillis).plus(PATIENCE),
                () -> Db.queued(pool, t) == 0 && Db.queued(pool, other) == 0);
        assertTrue(failed.get() > 2 * DeliveryProfile.MAX_ATTEMPTS, "the outage outlasted max-attempts: " + failed);
        assertTrue(deadLetters(t).isEmpty() && deadLetters(other).isEmpty(), "an outage dead-letters nothing");
        for (String tenant : List.of(t, other)) {
            assertEquals(20, origin.providerIds(tenant).stream().filter(id -> id.startsWith("o-")).distinct().count(),
                    "every event delivered after the outage");
        }
    }

    @Test
    void aRedirectIsNeverFollowedAndNeverCountsAsDelivery() throws Exception {
        try (FakeOrigin elsewhere = new FakeOrigin()) {
            String t = tenant().provision();
            AtomicInteger redirects = new AtomicInteger();
            origin.answer(t, batch -> redirects.incrementAndGet() <= 3
                    ? new Answer(303, Map.of("Location", elsewhere.baseUrl() + "/internal/webhooks/batch"), "", 0)
                    : Answer.ok());
            Events.accept(t, "moved-1", "{}");
            await().atMost(PATIENCE).until(() -> redirects.get() > 3 && Db.queued(pool, t) == 0);
            assertEquals(0, elsewhere.requests(), "nothing sent to the Location, not even a GET");
            assertTrue(deadLetters(t).isEmpty());
            assertEquals(List.of("moved-1"), origin.providerIds(t).stream().distinct().toList());
            assertEquals(4, origin.batches(t).size(), "three 303s retried, then delivered");
        }
    }

    @Test
    void batchAcceptedButNotDeletedIsDeliveredAgainAndNothingIsLost() {
        String t = tenant().provision();
        AtomicInteger calls = new AtomicInteger();
        // The first answer comes after the drainer lost its lease (as if it had paused or crashed between the
        // origin's 2xx and the delete): the fenced delete removes nothing, and the batch is sent again.
        origin.answer(t, batch -> {
            if (calls.incrementAndGet() == 1) {
                pool.preparedQuery("UPDATE drain_leases SET token = -1 WHERE tenant_id = $1").execute(Tuple.of(t))
                        .await().indefinitely();
            }
            return Answer.ok();
        });
        Events.accept(t, "alo-1", "{}");
        Events.accept(t, "alo-2", "{}");
        await().atMost(PATIENCE).until(() -> Db.queued(pool, t) == 0);
        List<String> ids = origin.providerIds(t);
        assertTrue(ids.stream().filter("alo-1"::equals).count() >= 2, "re-delivered: " + ids);
        assertEquals(new HashSet<>(List.of("alo-1", "alo-2")), new HashSet<>(ids));
    }

    @Test
    void aDrainedTenantLetsGoOfItsLease() {
        // The read that finds the queue empty releases the lease in the same statement: an idle tenant is nobody's,
        // so any replica takes it at once when its next event arrives.
        String t = tenant().provision();
        Events.accept(t, "lease-1", "{}");
        Events.accept(t, "lease-2", "{}");
        await().atMost(PATIENCE).until(() -> origin.providerIds(t).size() == 2 && Db.queued(pool, t) == 0);
        await().atMost(PATIENCE).until(() -> pool.preparedQuery(
                "SELECT count(*) FROM drain_leases WHERE tenant_id = $1").execute(Tuple.of(t)).await().indefinitely()
                .iterator().next().getLong(0) == 0);
        Events.accept(t, "lease-3", "{}");
        await().atMost(PATIENCE).until(() -> origin.providerIds(t).equals(List.of("lease-1", "lease-2", "lease-3")));
    }

    @Test
    void backlogWithoutNewTrafficIsDrained() {
        // Rows written before a restart: no actor wakes the drainer, the sweep must find them.
        String t = tenant().provision();
        pool.preparedQuery("""
                INSERT INTO event_queue (tenant_id, event_id, body, content_type, received_at, next_attempt_at)
                SELECT $1, 'old-' || g, convert_to('{}', 'UTF8'), 'application/json', now(), now()
                FROM generate_series(1, 7) g""").execute(Tuple.of(t)).await().indefinitely();
        await().atMost(PATIENCE).until(() -> origin.providerIds(t).size() == 7 && Db.queued(pool, t) == 0);
    }

    /** The key of a dead-letter test event: its X-Event-ID bound to its body {"id": ...}. */
    private static String dl(String id) {
        return Events.key(id);
    }

    @Test
    void deadLettersAreListedReplayedInOrderAndPurgedThroughSignedCommands() {
        String t = tenant().provision();
        origin.answer(t, batch -> Answer.status(400));
        for (String id : List.of("dl-1", "dl-2", "dl-3")) {
            Events.accept(t, id);
        }
        await().atMost(PATIENCE).until(() -> deadLetters(t).size() == 3);
        String path = "/control/tenants/" + t + "/dead-letters";

        var page1 = Signed.command("").queryParam("limit", 2).get(path).then().statusCode(200).extract().jsonPath();
        assertEquals(List.of(dl("dl-1"), dl("dl-2")), page1.getList("deadLetters.eventId"));
        assertEquals(400, page1.getInt("deadLetters[0].lastStatus"));
        long after = page1.getLong("nextAfter");
        var page2 = Signed.command("").queryParam("limit", 2).queryParam("after", after).get(path)
                .then().statusCode(200).extract().jsonPath();
        assertEquals(List.of(dl("dl-3")), page2.getList("deadLetters.eventId"));
        assertEquals(null, (Object) page2.get("nextAfter"));

        long firstId = page1.getLong("deadLetters[0].id");
        Signed.command("").get(path + "/" + firstId).then().statusCode(200)
                .body("eventId", equalTo(dl("dl-1")))
                .body("rawBody", equalTo("{\"id\":\"dl-1\"}"))
                .body("lastStatus", equalTo(400));
        Signed.command("").get(path + "/999999999").then().statusCode(404);

        origin.answer(t, batch -> Answer.ok());
        Signed.command("{\"ids\":[" + firstId + "]}").post(path + "/replay").then().statusCode(200)
                .body("replayed", equalTo(1)).body("replay", equalTo(false));
        Signed.command("{\"ids\":[" + firstId + "]}").post(path + "/replay").then().statusCode(200)
                .body("replayed", equalTo(0)).body("replay", equalTo(true));
        await().atMost(PATIENCE).until(() -> origin.batches(t).stream()
                .anyMatch(b -> FakeOrigin.providerId(b.events().get(0)).equals("dl-1")
                        && b.events().get(0).get("attempts").asInt() == 1 && Db.queued(pool, t) == 0));
        Signed.command("{}").post(path + "/replay").then().statusCode(200)
                .body("replayed", equalTo(2));
        await().atMost(PATIENCE).until(() -> Db.queued(pool, t) == 0 && deadLetters(t).isEmpty());
        List<String> tail = origin.providerIds(t).subList(origin.providerIds(t).size() - 2, origin.providerIds(t).size());
        assertEquals(List.of("dl-2", "dl-3"), tail, "replay keeps the original order");

        origin.answer(t, batch -> Answer.status(400));
        Events.accept(t, "dl-4", "{}");
        await().atMost(PATIENCE).until(() -> deadLetters(t).size() == 1);
        Signed.command("{\"from\":\"2000-01-01T00:00:00Z\"}").delete(path).then().statusCode(200)
                .body("purged", equalTo(1));
        Signed.command("{\"from\":\"2000-01-01T00:00:00Z\"}").delete(path).then().statusCode(200)
                .body("purged", equalTo(0)).body("replay", equalTo(true));
        assertTrue(deadLetters(t).isEmpty());
        RestAssured.given().get(path).then().statusCode(401);
        Signed.command("{\"ids\":[\"x\"]}").post(path + "/replay").then().statusCode(400);
    }

    @Test
    void demoOriginVerifiesTokenAndSignatureCountsEventsAndRejectsItsPoison() throws Exception {
        try (DemoOrigin demo = new DemoOrigin(0, FakeOriginResource.TOKEN, FakeOriginResource.SIGNING_SECRET, true);
                DemoOrigin wrongToken = new DemoOrigin(0, "another-token", FakeOriginResource.SIGNING_SECRET, true)) {
            String t = tenant().provision();
            // A tenant's own origin gets the tenant's own credentials (never the global ones): here the demo's.
            Signed.command("{\"originUrl\":\"http://127.0.0.1:" + demo.port() + "\"" + ownCredentials())
                    .put("/control/tenants/" + t).then().statusCode(200);
            RestAssured.given().post("http://127.0.0.1:" + demo.port() + "/mode?poison=demo-3")
                    .then().statusCode(200);
            for (int i = 1; i <= 5; i++) {
                Events.accept(t, "demo-" + i, "{\"n\":" + i + "}");
            }
            await().atMost(PATIENCE).until(() -> Db.queued(pool, t) == 0);
            assertEquals(4L, demo.stats().get("distinctEvents"));
            assertEquals(0L, demo.stats().get("refused"));
            assertTrue(deadLetters(t).get(0).getString("last_error").contains("poison (demo origin)"));

            String misconfigured = tenant().provision();
            Signed.command("{\"originUrl\":\"http://127.0.0.1:" + wrongToken.port() + "\"" + ownCredentials())
                    .put("/control/tenants/" + misconfigured).then().statusCode(200);
            Events.accept(misconfigured, "kept-1", "{}");
            await().atMost(PATIENCE).until(() -> wrongToken.stats().get("refused") >= 2);
            // A 401 is a configuration problem: the event is retried, not dead-lettered.
            assertEquals(1, Db.queued(pool, misconfigured));
            assertTrue(deadLetters(misconfigured).isEmpty());
            // Its origin goes away with this test and the event would wait for it forever (a refused connection
            // never dead-letters): pause the tenant so later tests' sweeps do not keep waking it.
            Signed.command("").post("/control/tenants/" + misconfigured + "/pause").then().statusCode(200);
        }
    }

    /** The rest of a command body giving a tenant the token and signing secret the demo origins check against. */
    private static String ownCredentials() {
        return ",\"originToken\":\"" + FakeOriginResource.TOKEN + "\",\"originSigningSecret\":\""
                + FakeOriginResource.SIGNING_SECRET + "\"}";
    }

    /** Awaits {@code done}, the tenant's waits skipped on the drainer's clock. */
    private void skipWaits(String tenantId, Callable<Boolean> done) {
        clock.skipWaits(drainer::view, List.of(tenantId), PATIENCE, done);
    }

    private int maxWaits(String tenantId) {
        Row row = pool.preparedQuery("SELECT coalesce(max(waits), 0) FROM event_queue WHERE tenant_id = $1")
                .execute(Tuple.of(tenantId)).await().indefinitely().iterator().next();
        return row.getInteger(0);
    }

    private List<Row> deadLetters(String tenantId) {
        List<Row> rows = new ArrayList<>();
        pool.preparedQuery("SELECT * FROM dead_letters WHERE tenant_id = $1 ORDER BY id").execute(Tuple.of(tenantId))
                .await().indefinitely().forEach(rows::add);
        return rows;
    }
}
