package io.webhookbuffer.queue;

import static io.restassured.RestAssured.given;
import static io.webhookbuffer.testsupport.TestTenants.tenant;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.webhookbuffer.testsupport.InjectProxy;
import io.webhookbuffer.testsupport.PostgresProxyResource;
import io.webhookbuffer.testsupport.Signed;
import io.webhookbuffer.testsupport.TcpProxy;
import io.webhookbuffer.testsupport.TestTenants;

/**
 * After a PostgreSQL blip the group commit recovers without a spurious 503, and readiness says what the commits
 * see. The app reaches PostgreSQL through a proxy the test cuts; the test reads the database directly.
 */
@QuarkusTest
@TestProfile(CommitRecoveryTests.ProxiedDatabase.class)
class CommitRecoveryTests {

    private static final Duration HEALTH_TIMEOUT = Duration.ofSeconds(1);

    public static class ProxiedDatabase implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("buffer.health.timeout", HEALTH_TIMEOUT.toMillis() + "ms");
        }

        @Override
        public List<TestResourceEntry> testResources() {
            return List.of(new TestResourceEntry(PostgresProxyResource.class));
        }
    }

    @InjectProxy
    TcpProxy proxy;

    @Inject
    Pool pool;

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
        send(t, "before").then().statusCode(202); // the commit keeps its connection

        proxy.cut(); // PostgreSQL goes away and comes back while no event arrives
        proxy.restore();

        Response after = send(t, "after");
        assertEquals(202, after.statusCode(), after.asString());
        assertEquals(2, queued(t));
    }

    @Test
    void aCommitWhoseAnswerWasLostIsRetriedAndAnswered202() throws Exception {
        String t = tenant().provision();
        send(t, "warm").then().statusCode(202);

        proxy.stallReplies(); // PostgreSQL commits what it gets, its answer never arrives
        CompletableFuture<Response> lost = CompletableFuture.supplyAsync(() -> send(t, "answer-lost"));
        await().atMost(Duration.ofSeconds(3)).until(() -> dedupeRows(t, "answer-lost") == 1); // committed
        proxy.dropConnections(); // the connection dies before the answer came back

        Response answer = lost.get();
        assertEquals(202, answer.statusCode(), "committed by the first try, found by the retry: " + answer.asString());
        assertEquals(2, queued(t), "stored once");
        send(t, "answer-lost").then().statusCode(200);
    }

    private static int ready() {
        return given().get("/q/health/ready").statusCode();
    }

    private static Response send(String tenantId, String eventId) {
        return Signed.webhook(TestTenants.DEFAULT_SECRET, "{\"id\":\"" + eventId + "\"}").header("X-Event-ID", eventId)
                .post("/webhook/" + tenantId);
    }

    private long queued(String tenantId) throws Exception {
        return count("SELECT count(*) FROM event_queue WHERE tenant_id = ?", tenantId);
    }

    private long dedupeRows(String tenantId, String eventId) throws Exception {
        return count("SELECT count(*) FROM processed_events WHERE tenant_id = ? AND event_id = ?", tenantId, eventId);
    }

    private int sleeping() throws Exception {
        return (int) count("SELECT count(*) FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(3)'"
                + " AND state = 'active' AND datname = current_database()");
    }

    private long count(String sql, String... parameters) throws Exception {
        try (Connection c = direct.getConnection(); PreparedStatement st = c.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                st.setString(i + 1, parameters[i]);
            }
            try (ResultSet r = st.executeQuery()) {
                r.next();
                return r.getLong(1);
            }
        }
    }
}
