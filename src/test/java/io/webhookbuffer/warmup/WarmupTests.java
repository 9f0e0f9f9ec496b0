package io.webhookbuffer.warmup;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
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
import io.webhookbuffer.actor.IngestResult;
import io.webhookbuffer.actor.TenantActors;
import io.webhookbuffer.ingress.EdgeRefusal;
import io.webhookbuffer.ingress.IngestOutcome;
import io.webhookbuffer.ingress.RefusalLog;
import io.webhookbuffer.ingress.Sinks;
import io.webhookbuffer.ingress.TenantSinks;
import io.webhookbuffer.queue.IncomingEvent;
import io.webhookbuffer.queue.StoreOutcome;
import io.webhookbuffer.testsupport.Db;
import io.webhookbuffer.testsupport.Events;
import io.webhookbuffer.testsupport.RawHttp;
import io.webhookbuffer.testsupport.Scrape;
import io.webhookbuffer.testsupport.Signed;
import io.webhookbuffer.testsupport.TestTenants;
import io.webhookbuffer.trace.IngestTrace;
import io.webhookbuffer.usage.UsageCounters;

/**
 * The start-up warm-up in an application of its own (a rehearsal of at most 5 s), against the real PostgreSQL: it
 * runs through the HTTP server to the real group-commit statement, readiness reports it, and it leaves nothing
 * behind (no row in any table, no usage, no ingest metric or refusal kept, no span, no actor) and no way in (the
 * rehearsal tenant is unknown once it ends). Its effects go to the sinks it was held with, also for a request still on
 * its way when it ends.
 */
@QuarkusTest
@TestProfile(WarmupTests.Rehearsing.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class WarmupTests {

    public static class Rehearsing implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("buffer.warmup.enabled", "true", "buffer.warmup.max-duration", "5s");
        }
    }

    @Inject
    Warmup warmup;
    @Inject
    Vertx vertx;
    @Inject
    Sinks sinks;
    @Inject
    Pool pool;
    @Inject
    UsageCounters usage;
    @Inject
    TenantActors actors;
    @Inject
    RefusalLog refusalLog;

    @BeforeEach
    void warmedUp() {
        await().atMost(Duration.ofSeconds(60)).until(warmup::done);
    }

    @Test
    void theRehearsalRunsThroughTheIngestPathAndReadinessWaitsForIt() {
        assertTrue(warmup.sent() > 0, "requests were answered: " + warmup.sent());
        assertEquals(0, warmup.failed(), "each with 202 or 200: verified, decided, written (and rolled back)");
        given().get("/q/health/ready").then().statusCode(200)
                .body("checks.name", hasItem("warm-up"))
                .body("checks.find { it.name == 'warm-up' }.status", equalTo("UP"))
                .body("checks.find { it.name == 'warm-up' }.data.requests", equalTo((int) warmup.sent()));
    }

    /** First: the other tests send requests of their own, which are reported. */
    @Test
    @Order(1)
    void theRehearsalLeavesNothingBehind() {
        String id = warmup.tenant().id();
        for (String table : List.of("event_queue", "processed_events", "dead_letters", "usage_buckets", "queue_depth",
                "drain_leases", "lifecycle_events", "tenants")) {
            assertEquals(0, pool.preparedQuery("SELECT count(*) FROM " + table + " WHERE tenant_id = $1")
                    .executeAndAwait(Tuple.of(id)).iterator().next().getLong(0), "no row in " + table);
        }
        assertTrue(usage.drain().stream().noneMatch(c -> c.tenantId().equals(id)), "no usage counted");
        Scrape metrics = Scrape.now();
        for (IngestOutcome outcome : IngestOutcome.values()) {
            assertEquals(0, metrics.count("buffer_ingest_total", "outcome", outcome.label()), outcome.label());
        }
        for (EdgeRefusal reason : EdgeRefusal.values()) {
            assertEquals(0, metrics.count("buffer_ingress_refusals_total", "reason", reason.label()), reason.label());
        }
        assertEquals(List.of(), refusalLog.latest(100), "no refusal kept");
        assertEquals(0, actors.size(), "its actor is forgotten");
    }

    /** The ingest span: the rehearsal's sinks start none (40,000 spans at each start would fill the export queue). */
    @Test
    void theRehearsalsSinksAreNotTheReplicas() {
        TenantSinks held = sinks.of(warmup.tenant());
        assertNotSame(sinks.replica(), held);
        assertNotSame(sinks.replica().usage(), held.usage(), "a tally nobody flushes");
        assertNotSame(sinks.replica().metrics(), held.metrics());
        assertNotSame(sinks.replica().storage().writer(), held.storage().writer());
        assertSame(IngestTrace.OFF, held.traces().ingest(warmup.tenant().id(), "generic", false, name -> null, 0));
    }

    /**
     * A rehearsal request still on its way when the warm-up ends (its tenant looked up before) writes to the sinks the
     * tenant was held with, never to the replica's: its event is answered as stored and nothing is kept.
     */
    @Test
    void aRehearsalRequestStillOnItsWayWhenItEndsWritesToTheThrowAwaySinks() throws Exception {
        assertNull(sinks.find(warmup.tenant().id()).toCompletableFuture().get(10, TimeUnit.SECONDS), "unknown now");
        String id = Events.key("late");
        IncomingEvent event = new IncomingEvent(warmup.tenant().id(), id, Events.body(id).getBytes(StandardCharsets.UTF_8),
                "application/json", "{}", System.currentTimeMillis());
        IngestResult result = actors.ingest(warmup.tenant(), event, sinks.of(warmup.tenant()).storage())
                .toCompletableFuture().get(10, TimeUnit.SECONDS);
        actors.forget(warmup.tenant().id());
        assertEquals(IngestResult.Kind.BUFFERED, result.kind());
        assertEquals(0, Db.queued(pool, warmup.tenant().id()), "no queue row");
        assertEquals(0, Db.dedupeRows(pool, warmup.tenant().id()), "no dedupe row");
    }

    @Test
    @Order(2)
    void aRequestAfterTheWarmupIsReported() throws IOException {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        Scrape before = Scrape.now();
        try (RawHttp http = RawHttp.from(port)) {
            http.send(RawHttp.head("POST /webhook/nobody-after-warmup", "Host: 127.0.0.1", "Content-Length: 2") + "{}");
            assertEquals(404, http.answer(Duration.ofSeconds(5)).status());
        }
        Scrape after = Scrape.now();
        assertEquals(1, after.count("buffer_ingest_total", "outcome", "unknown_tenant")
                - before.count("buffer_ingest_total", "outcome", "unknown_tenant"), "the 404 is counted");
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
        Signed.webhook(warmup.secret(), body).header("X-Event-ID", "after-warmup")
                .post("/webhook/" + warmup.tenant().id()).then().statusCode(404);
    }

    @Test
    void theRolledBackWriterAnswersWhatTheStatementDidAndKeepsNothing() throws Exception {
        String tenant = TestTenants.tenant().provision();
        Events.accept(tenant, "already-stored");
        RolledBackWriter writer = new RolledBackWriter(pool.getDelegate());
        List<CompletableFuture<StoreOutcome>> outcomes = new ArrayList<>();
        for (String id : List.of(Events.key("new-1"), Events.key("new-2"), Events.key("already-stored"))) {
            CompletableFuture<StoreOutcome> outcome = new CompletableFuture<>();
            writer.write(new IncomingEvent(tenant, id, Events.body(id).getBytes(StandardCharsets.UTF_8),
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
