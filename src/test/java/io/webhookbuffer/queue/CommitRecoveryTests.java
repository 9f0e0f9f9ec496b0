package io.webhookbuffer.queue;

import static io.restassured.RestAssured.given;
import static io.webhookbuffer.testsupport.TestTenants.tenant;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import io.vertx.mutiny.sqlclient.Pool;
import io.webhookbuffer.tenant.TenantDirectory;
import io.webhookbuffer.testsupport.BusyPool;
import io.webhookbuffer.testsupport.Db;
import io.webhookbuffer.testsupport.Events;
import io.webhookbuffer.testsupport.InjectProxy;
import io.webhookbuffer.testsupport.ProxiedDependenciesProfile;
import io.webhookbuffer.testsupport.TcpProxy;

/**
 * After a PostgreSQL blip the group commit recovers without a spurious 503, and readiness says what the commits
 * see. The app reaches PostgreSQL through a proxy the test cuts; the test reads the database directly.
 */
@QuarkusTest
@TestProfile(ProxiedDependenciesProfile.class)
class CommitRecoveryTests {

    private static final Duration HEALTH_TIMEOUT = ProxiedDependenciesProfile.HEALTH_TIMEOUT;
    private static final long LOCK = 7_140_214L;

    @InjectProxy
    TcpProxy proxy;

    @Inject
    Pool pool;

    @Inject
    TenantDirectory directory;

    @Inject
    AgroalDataSource direct; // not through the proxy

    @ConfigProperty(name = "quarkus.datasource.reactive.max-size")
    int poolSize;

    @AfterEach
    void restore() throws Exception {
        proxy.restore();
    }

    @Test
    void theFirstEventAfterAnOutageThatSawNoTrafficIs202() throws Exception {
        String t = tenant().provision();
        Events.post(t, "before").then().statusCode(202); // the commit keeps its connection

        proxy.cut(); // PostgreSQL goes away and comes back while no event arrives
        proxy.restore();

        Response after = Events.post(t, "after");
        assertEquals(202, after.statusCode(), after.asString());
        assertEquals(2, queued(t));
    }

    @Test
    void aCommitWhoseAnswerWasLostIsRetriedAndAnswered202() throws Exception {
        String t = tenant().provision();
        Events.post(t, "warm").then().statusCode(202);

        proxy.stallReplies(); // PostgreSQL commits what it gets, its answer never arrives
        CompletableFuture<Response> lost = CompletableFuture.supplyAsync(() -> Events.post(t, "answer-lost"));
        await().atMost(Duration.ofSeconds(3)).until(() -> dedupeRows(t, "answer-lost") == 1); // committed
        proxy.dropConnections(); // the connection dies before the answer came back

        Response answer = lost.get();
        assertEquals(202, answer.statusCode(), "committed by the first try, found by the retry: " + answer.asString());
        assertEquals(2, queued(t), "stored once");
        Events.post(t, "answer-lost").then().statusCode(200);
    }

    @Test
    void readinessIsDownWhileCommitsCannotReachPostgresAndUpTheMomentTheyCan() throws Exception {
        String t = tenant().provision();
        Events.post(t, "before").then().statusCode(202);

        proxy.cut(); // and no event arrives while PostgreSQL is away
        await().atMost(Duration.ofSeconds(5)).until(() -> ready() == 503);

        proxy.restore();
        assertEquals(200, ready(), "the first probe after PostgreSQL is back");
        Response after = Events.post(t, "after");
        assertEquals(202, after.statusCode(), "ready means a commit works: " + after.asString());
    }

    @Test
    void readinessIsUpWhileCommitsWorkThoughEveryOtherPooledConnectionIsBusy() throws Exception {
        String t = tenant().provision();
        Events.post(t, "kept").then().statusCode(202);
        Thread.sleep(HEALTH_TIMEOUT.toMillis() + 200); // no commit is recent: the probe has to reach PostgreSQL
        // The tenant is cached: what follows is about commits, and a tenant this replica did not hold would be looked
        // up in the busy pool (a change reloads a held tenant in the background, TenantLookupsWithABusyPoolTests).
        directory.find(t).toCompletableFuture().get(5, TimeUnit.SECONDS);

        try (BusyPool busy = BusyPool.hold(direct, pool, poolSize, LOCK)) {
            assertEquals(200, ready(), "the commit path (its kept connection) reaches PostgreSQL");
            Events.post(t, "busy").then().statusCode(202);
            assertEquals(0, busy.finished(), "all of it happened while the pool was busy");
        }
    }

    private static int ready() {
        return given().get("/q/health/ready").statusCode();
    }

    private long queued(String tenantId) {
        return Db.count(direct, "SELECT count(*) FROM event_queue WHERE tenant_id = ?", tenantId);
    }

    /** Dedupe rows of the event {@link Events#post} sent with {@code eventId} (its key binds the id to the body). */
    private long dedupeRows(String tenantId, String eventId) {
        return Db.count(direct, "SELECT count(*) FROM processed_events WHERE tenant_id = ? AND event_id = ?", tenantId,
                Events.key(eventId));
    }
}
