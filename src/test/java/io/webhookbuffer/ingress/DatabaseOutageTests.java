package io.webhookbuffer.ingress;

import static io.restassured.RestAssured.given;
import static io.webhookbuffer.testsupport.TestTenants.tenant;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import jakarta.inject.Inject;

import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.quarkus.arc.ClientProxy;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import io.vertx.mutiny.sqlclient.Pool;
import io.webhookbuffer.actor.TenantActors;
import io.webhookbuffer.metrics.MetricNames;
import io.webhookbuffer.testsupport.CapturedLog;
import io.webhookbuffer.testsupport.Events;
import io.webhookbuffer.testsupport.InjectProxy;
import io.webhookbuffer.testsupport.ProxiedDependenciesProfile;
import io.webhookbuffer.testsupport.Scrape;
import io.webhookbuffer.testsupport.TcpProxy;

/**
 * What a sender sees when PostgreSQL goes away: 503 with Retry-After, nothing half-written, and the same event
 * accepted once the database is back; and what an operator sees: warnings, no error. The app reaches the real
 * database through a proxy the test can cut.
 */
@QuarkusTest
@TestProfile(ProxiedDependenciesProfile.class)
class DatabaseOutageTests {

    /** buffer.queue.write-timeout here; the tenant's mailbox holds 2 events. */
    private static final Duration WRITE_TIMEOUT = ProxiedDependenciesProfile.WRITE_TIMEOUT;

    /** How long after the recovery the log is watched for errors. */
    private static final Duration QUIET_AFTER = Duration.ofSeconds(2);

    private static final String REFUSALS = MetricNames.INGRESS_REFUSALS.prometheus();
    private static final String MAILBOX = MetricNames.MAILBOX_DEPTH.prometheus();

    @InjectProxy
    TcpProxy proxy;

    @Inject
    TenantActors actors;

    @Inject
    Pool pool;

    @AfterEach
    void restore() throws Exception {
        proxy.restore();
    }

    @Test
    void unreachableDatabaseAnswers503AndLeavesNoDedupeResidue() throws Exception {
        String t = tenant().provision();
        String cold = tenant().provision();
        Events.post(t, "before").then().statusCode(202);
        Scrape before = Scrape.now();

        proxy.cut();
        Events.post(t, "during").then().statusCode(503).header("Retry-After", "30")
                .body("status", equalTo("unavailable")).body("reason", equalTo("not_stored"))
                .body("eventId", notNullValue()); // the actor's answer: its commit failed
        // A tenant never looked up: its lookup fails before any actor, and the request is refused the same way.
        Events.post(cold, "cold").then().statusCode(503).body("reason", equalTo("not_stored")).body("eventId", nullValue());
        assertEquals(2, Scrape.now().count(REFUSALS, "reason", "not_stored") - before.count(REFUSALS, "reason", "not_stored"),
                "buffer_ingress_refusals_total{reason=not_stored}: the commit's failure and the lookup's");

        proxy.restore();
        // The retry of the refused event is a new event (no dedupe residue): 202, not 200.
        await().atMost(Duration.ofSeconds(20)).until(() -> Events.post(t, "during").statusCode() != 503);
        Response after = Events.post(t, "during");
        assertEquals(200, after.statusCode(), "the event was stored once by the retry above");
        assertEquals(2, countRows(t));
    }

    @Test
    void unresponsiveDatabaseTimesOutTo503AndAFullMailboxAnswers503AtOnce() throws Exception {
        String t = tenant().senderRetries("long").provision(); // a sender that retries: the mailbox holds 2
        Events.post(t, "warm").then().statusCode(202);

        assertEquals(0, Scrape.now().count(MAILBOX), "no event waits");
        proxy.stall();
        CompletableFuture<Integer> first =
                CompletableFuture.supplyAsync(() -> Events.post(t, "stalled-1").statusCode());
        CompletableFuture<Integer> second =
                CompletableFuture.supplyAsync(() -> Events.post(t, "stalled-2").statusCode());
        // Two events hold the tenant's mailbox (capacity 2): a third is refused without waiting. The overflow is sent
        // only once both are in: sent earlier, it would take a place in the mailbox itself and wait for the timeout.
        await().atMost(WRITE_TIMEOUT.dividedBy(2)).until(() -> actors.mailboxDepth(t) == 2);
        assertEquals(2, Scrape.now().count(MAILBOX), "buffer_actors_mailbox_depth: the two stalled events");
        Response overflow = Events.post(t, "overflow");
        assertEquals(503, overflow.statusCode(), overflow.asString());
        assertEquals("tenant_overloaded", overflow.jsonPath().getString("reason"));
        assertEquals(2, actors.mailboxDepth(t), "answered while both stalled events still waited");
        // The stalled writes are reported as not stored once buffer.queue.write-timeout passes.
        assertEquals(503, first.get().intValue());
        assertEquals(503, second.get().intValue());

        proxy.restore();
        // Their outcome was unknown to us: a retry is either stored now (202) or found stored (200); never lost.
        await().atMost(Duration.ofSeconds(20)).until(() -> Events.post(t, "stalled-1").statusCode() != 503);
        await().atMost(Duration.ofSeconds(20)).until(() -> Events.post(t, "stalled-2").statusCode() != 503);
        Events.post(t, "stalled-1").then().statusCode(200);
        Events.post(t, "stalled-2").then().statusCode(200);
    }

    /**
     * Issue 43: a tenant whose sender does not retry (the generic default) may have twice the mailbox capacity in
     * flight before {@code tenant_overloaded}: four events wait on the stalled database, the fifth is refused.
     */
    @Test
    void aSenderThatDoesNotRetryHasTwiceTheMailbox() throws Exception {
        String t = tenant().senderRetries("never").provision();
        Events.post(t, "warm").then().statusCode(202);
        proxy.stall();
        List<CompletableFuture<Integer>> stalled = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            String id = "held-" + i;
            stalled.add(CompletableFuture.supplyAsync(() -> Events.post(t, id).statusCode()));
        }
        await().atMost(WRITE_TIMEOUT.dividedBy(2)).until(() -> actors.mailboxDepth(t) == 4);
        Response overflow = Events.post(t, "overflow");
        assertEquals(503, overflow.statusCode(), overflow.asString());
        assertEquals("tenant_overloaded", overflow.jsonPath().getString("reason"));
        for (CompletableFuture<Integer> answer : stalled) {
            assertEquals(503, answer.get().intValue(), "not stored: the database is stalled");
        }
        proxy.restore();
    }

    /**
     * An outage that was survived reads as warnings, never as errors: nothing at ERROR in the application log during
     * the outage, the recovery and the seconds after it. The Vert.x SQL pool once failed each query of an outage a
     * second time when its connection-timeout timer fired, 30 s later ("Uncaught exception received by Vert.x:
     * IllegalStateException: Result is already complete"): the app's pool is the wrapper that prevents it
     * (database.ConnectionPerQueryPool), which {@code ConnectionPerQueryPoolTests} checks on a pool whose timer is
     * 1 s, so this test no longer waits out the 30 s.
     */
    @Test
    void aSurvivedOutageLogsNoError() throws Exception {
        String t = tenant().provision();
        Events.post(t, "quiet-before").then().statusCode(202);
        try (CapturedLog log = CapturedLog.start()) {
            proxy.cut();
            await().atMost(Duration.ofSeconds(10)).until(() -> ready() == 503);
            for (int i = 0; i < 5; i++) {
                assertEquals(503, Events.post(t, "quiet-during-" + i).statusCode());
                assertEquals(503, ready());
            }
            proxy.restore();
            await().atMost(Duration.ofSeconds(20)).until(() -> ready() == 200);
            await().atMost(Duration.ofSeconds(20)).until(() -> Events.post(t, "quiet-after").statusCode() == 202);

            await().during(QUIET_AFTER).atMost(QUIET_AFTER.plusSeconds(10))
                    .untilAsserted(() -> assertEquals(List.of(), log.errors()));
        }
        assertEquals("ConnectionPerQueryPool", ClientProxy.unwrap(pool.getDelegate()).getClass().getSimpleName(),
                "the app's pool fails a query of an outage once (ConnectionPerQueryPoolTests)");
    }

    private static int ready() {
        return given().get("/q/health/ready").statusCode();
    }

    private static long countRows(String tenantId) {
        // Through the control plane's own view would need a command; count via a direct JDBC connection instead.
        try (var c = DriverManager.getConnection(
                ConfigProvider.getConfig().getValue("quarkus.datasource.jdbc.url",
                        String.class), "postgres", "");
                var st = c.prepareStatement("SELECT count(*) FROM event_queue WHERE tenant_id = ?")) {
            st.setString(1, tenantId);
            var rs = st.executeQuery();
            rs.next();
            return rs.getLong(1);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
