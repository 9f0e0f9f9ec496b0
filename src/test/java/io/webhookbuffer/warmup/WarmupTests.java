package io.webhookbuffer.warmup;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import jakarta.inject.Inject;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.RequestOptions;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import io.webhookbuffer.actor.TenantActors;
import io.webhookbuffer.ingress.EdgeRefusal;
import io.webhookbuffer.ingress.IngestOutcome;
import io.webhookbuffer.ingress.RefusalLog;
import io.webhookbuffer.queue.IncomingEvent;
import io.webhookbuffer.queue.RehearsalWriter;
import io.webhookbuffer.queue.StoreOutcome;
import io.webhookbuffer.tenant.RehearsalTenant;
import io.webhookbuffer.testsupport.Db;
import io.webhookbuffer.testsupport.Events;
import io.webhookbuffer.testsupport.RawHttp;
import io.webhookbuffer.testsupport.Scrape;
import io.webhookbuffer.testsupport.Signed;
import io.webhookbuffer.testsupport.TestTenants;
import io.webhookbuffer.usage.UsageCounters;

/**
 * The start-up warm-up in an application of its own (3,000 rehearsal requests on 8 connections, then 600 refusals),
 * against the real PostgreSQL: it runs through the HTTP server to the real group-commit statement and through the
 * edge's refusals, readiness reports it, and it leaves nothing behind (no queue or dedupe row, no usage, no ingest
 * metric or refusal kept, no actor) and no way in (the rehearsal tenant is unknown once it ends).
 */
@QuarkusTest
@TestProfile(WarmupTests.Rehearsing.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class WarmupTests {

    static final int REQUESTS = 3_000;
    static final int REFUSALS = 600;

    public static class Rehearsing implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("buffer.warmup.enabled", "true", "buffer.warmup.requests", Integer.toString(REQUESTS),
                    "buffer.warmup.refusals", Integer.toString(REFUSALS), "buffer.warmup.connections", "8",
                    "buffer.warmup.max-duration", "60s");
        }
    }

    @Inject
    Warmup warmup;
    @Inject
    Vertx vertx;
    @Inject
    RehearsalTenant rehearsal;
    @Inject
    Pool pool;
    @Inject
    UsageCounters usage;
    @Inject
    TenantActors actors;
    @Inject
    RehearsalWriter rehearsalWriter;
    @Inject
    RefusalLog refusalLog;
    @Inject
    RefusalRehearsal refusals;

    @BeforeEach
    void warmedUp() {
        await().atMost(Duration.ofSeconds(60)).until(warmup::done);
    }

    @Test
    void theRehearsalRunsThroughTheIngestPathAndReadinessWaitsForIt() {
        assertEquals(REQUESTS, warmup.sent(), "every rehearsal request was answered");
        assertEquals(0, warmup.failed(), "each with 202 or 200: verified, decided, written (and rolled back)");
        given().get("/q/health/ready").then().statusCode(200)
                .body("checks.name", hasItem("warm-up"))
                .body("checks.find { it.name == 'warm-up' }.status", equalTo("UP"))
                .body("checks.find { it.name == 'warm-up' }.data.requests", equalTo(REQUESTS));
    }

    @Test
    void theRehearsalLeavesNothingBehind() {
        assertEquals(0, Db.queued(pool, rehearsal.id()), "no queue row");
        assertEquals(0, Db.dedupeRows(pool, rehearsal.id()), "no dedupe row");
        assertTrue(usage.drain().stream().noneMatch(c -> c.tenantId().equals(rehearsal.id())), "no usage counted");
        assertEquals(0, pool.preparedQuery("SELECT count(*) FROM usage_buckets WHERE tenant_id = $1")
                .executeAndAwait(Tuple.of(rehearsal.id())).iterator().next().getLong(0), "nor flushed");
        assertEquals(0, Scrape.now().count("buffer_ingest_total", "outcome", "buffered"), "no ingest metric");
        assertEquals(0, actors.size(), "its actor is forgotten");
    }

    @Test
    void theRefusalsAreRehearsedThroughTheirOwnBranches() {
        RefusalRehearsal.Tally refused = warmup.refused();
        assertEquals(REFUSALS, refused.sent(), "every refusal exchange ended: " + refused.outcomes());
        Map<String, Long> outcomes = refused.outcomes();
        for (String status : List.of("400", "401", "404", "413")) {
            assertTrue(outcomes.getOrDefault(status, 0L) > 0, status + " among " + outcomes);
        }
        // A third are unknown tenants, each answered from the known ids: 404.
        assertTrue(outcomes.getOrDefault("404", 0L) >= REFUSALS / 6, "unknown tenants looked up: " + outcomes);
        for (String outcome : outcomes.keySet()) {
            assertTrue(outcome.matches("4\\d\\d|503|closed|left"), "only refusals and closes: " + outcomes);
        }
    }

    @Test
    void aRefusalRehearsalHasItsDurationWhenItsListenersRun() throws IOException {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        AtomicReference<Double> seen = new AtomicReference<>();
        // Every connection refused: the tally completes on an event loop, once this listener is in place.
        refusals.run("127.0.0.1", closedPort, () -> false).onComplete(done -> seen.set(done.result().seconds()));
        await().atMost(Duration.ofSeconds(30)).until(() -> seen.get() != null);
        assertTrue(seen.get() > 0, "the duration is set before the listeners (the log line) read it: " + seen.get());
    }

    /** First: the other tests send requests of their own, which are reported. */
    @Test
    @Order(1)
    void theRefusalRehearsalIsNeitherReportedNorKept() {
        Scrape metrics = Scrape.now();
        for (IngestOutcome outcome : IngestOutcome.values()) {
            assertEquals(0, metrics.count("buffer_ingest_total", "outcome", outcome.label()), outcome.label());
        }
        for (EdgeRefusal reason : EdgeRefusal.values()) {
            assertEquals(0, metrics.count("buffer_ingress_refusals_total", "reason", reason.label()), reason.label());
        }
        assertEquals(List.of(), refusalLog.latest(100), "no refusal kept");
        assertEquals(0, pool.preparedQuery("SELECT (SELECT count(*) FROM event_queue WHERE tenant_id LIKE $1)"
                + " + (SELECT count(*) FROM processed_events WHERE tenant_id LIKE $1)"
                + " + (SELECT count(*) FROM dead_letters WHERE tenant_id LIKE $1)")
                .executeAndAwait(Tuple.of(rehearsal.id() + "%")).iterator().next().getLong(0), "nothing stored");
        assertTrue(usage.drain().stream().noneMatch(c -> c.tenantId().startsWith(rehearsal.id())), "no usage");
    }

    /**
     * After the warm-up, every request is reported, whatever client port it comes from: the warm-up's refusals once
     * were told apart by their connections' client ports, and a sender whose connection reused one of them (20,000
     * refusals, each on a connection of its own, cover most of the ephemeral range) went unreported, so a fresh
     * replica's 404s and 413s moved no counter.
     */
    @Test
    @Order(2)
    void aRequestAfterTheWarmupIsReportedWhateverClientPortItComesFrom() throws IOException {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        Scrape before = Scrape.now();
        try (RawHttp http = RawHttp.from(port)) {
            http.send(RawHttp.head("POST /webhook/nobody-after-warmup", "Host: 127.0.0.1", "Content-Length: 2") + "{}");
            assertEquals(404, http.answer(Duration.ofSeconds(5)).status());
        }
        try (RawHttp http = RawHttp.from(port)) { // a forged rehearsal header is no rehearsal's
            http.send(RawHttp.head("POST /webhook/nobody-after-warmup", "Host: 127.0.0.1", "Content-Length: 2",
                    RehearsalTenant.HEADER + ": " + "0".repeat(64)) + "{}");
            assertEquals(404, http.answer(Duration.ofSeconds(5)).status());
        }
        Scrape after = Scrape.now();
        assertEquals(2, after.count("buffer_ingest_total", "outcome", "unknown_tenant")
                - before.count("buffer_ingest_total", "outcome", "unknown_tenant"), "the 404s are counted");
    }

    /**
     * Stopped during the warm-up, Quarkus closes the rehearsal's HTTP client under its lanes, and a closed client's
     * {@code request} throws (seen in a container stopped 6 s into its warm-up: an ERROR per lane, 64). A rehearsal
     * request on a closed client is not sent and says so, and nothing is thrown.
     */
    @Test
    void aRequestOnAClosedClientIsNotSentAndThrowsNothing() {
        HttpClient client = vertx.createHttpClient();
        client.close().toCompletionStage().toCompletableFuture().join();
        assertThrows(IllegalStateException.class, () -> client.request(new RequestOptions()), "the cause, as Vert.x has it");
        AtomicBoolean answered = new AtomicBoolean();
        assertFalse(Warmup.send(client, new RequestOptions().setURI("/webhook/x"), new byte[0], s -> answered.set(true)));
        assertFalse(answered.get());
    }

    @Test
    void theRehearsalTenantIsUnknownOnceTheWarmupEnds() {
        byte[] body = Events.body("after-warmup").getBytes(StandardCharsets.UTF_8);
        Signed.webhook(rehearsal.secret(), body).header("X-Event-ID", "after-warmup")
                .post("/webhook/" + rehearsal.id()).then().statusCode(404);
    }

    @Test
    void theRehearsalWriterAnswersWhatTheStatementDidAndKeepsNothing() throws Exception {
        String tenant = TestTenants.tenant().provision();
        Events.accept(tenant, "already-stored");
        List<CompletableFuture<StoreOutcome>> outcomes = new ArrayList<>();
        for (String id : List.of(Events.key("new-1"), Events.key("new-2"), Events.key("already-stored"))) {
            CompletableFuture<StoreOutcome> outcome = new CompletableFuture<>();
            rehearsalWriter.write(new IncomingEvent(tenant, id, Events.body(id).getBytes(StandardCharsets.UTF_8),
                    "application/json", "{}", System.currentTimeMillis()), outcome::complete);
            outcomes.add(outcome);
        }
        assertEquals(List.of(StoreOutcome.STORED, StoreOutcome.STORED, StoreOutcome.DUPLICATE),
                List.of(outcomes.get(0).get(10, TimeUnit.SECONDS), outcomes.get(1).get(10, TimeUnit.SECONDS),
                        outcomes.get(2).get(10, TimeUnit.SECONDS)));
        assertEquals(1, Db.queued(pool, tenant), "only the event stored for real");
        assertEquals(1, Db.dedupeRows(pool, tenant));
    }
}
