package io.webhookbuffer.ingress;

import static io.restassured.RestAssured.given;
import static io.webhookbuffer.testsupport.TestTenants.tenant;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import io.vertx.sqlclient.PoolOptions;
import io.webhookbuffer.testsupport.CapturedLog;
import io.webhookbuffer.testsupport.InjectProxy;
import io.webhookbuffer.testsupport.Signed;
import io.webhookbuffer.testsupport.TcpProxy;
import io.webhookbuffer.testsupport.TestTenants;

/**
 * An outage that was survived reads as warnings, never as errors: PostgreSQL unreachable for a few seconds (readiness
 * DOWN, senders answered 503), then back, and nothing at ERROR in the application log until every query issued
 * during the outage is past the pool's connection timeout (the Vert.x SQL pool once failed each of them a second time
 * when that timer fired: "Uncaught exception received by Vert.x: IllegalStateException: Result is already complete").
 */
@QuarkusTest
@TestProfile(DatabaseOutageTests.ProxiedDatabase.class)
class OutageLogTests {

    /** The pool's wait for a connection (Quarkus has no key for it: Vert.x's default). */
    private static final Duration CONNECTION_TIMEOUT = Duration.ofSeconds(PoolOptions.DEFAULT_CONNECTION_TIMEOUT);

    @InjectProxy
    TcpProxy proxy;

    @AfterEach
    void restore() throws Exception {
        proxy.restore();
    }

    @Test
    void aSurvivedOutageLogsNoError() throws Exception {
        String t = tenant().provision();
        send(t, "before").then().statusCode(202);
        try (CapturedLog log = CapturedLog.start()) {
            proxy.cut();
            await().atMost(Duration.ofSeconds(10)).until(() -> ready() == 503);
            for (int i = 0; i < 5; i++) {
                assertEquals(503, send(t, "during-" + i).statusCode());
                assertEquals(503, ready());
            }
            proxy.restore();
            await().atMost(Duration.ofSeconds(20)).until(() -> ready() == 200);
            await().atMost(Duration.ofSeconds(20)).until(() -> send(t, "after").statusCode() == 202);

            // Every query of the outage has failed once; the pool's timers for them fire within CONNECTION_TIMEOUT.
            await().during(CONNECTION_TIMEOUT.plusSeconds(2)).atMost(CONNECTION_TIMEOUT.plusSeconds(10))
                    .untilAsserted(() -> assertEquals(List.of(), log.errors()));
        }
    }

    private static int ready() {
        return given().get("/q/health/ready").statusCode();
    }

    private static Response send(String tenantId, String eventId) {
        return Signed.webhook(TestTenants.DEFAULT_SECRET, "{\"id\":\"" + eventId + "\"}").header("X-Event-ID", eventId)
                .post("/webhook/" + tenantId);
    }
}
