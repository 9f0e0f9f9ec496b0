package io.webhookbuffer.tenant;

import static io.webhookbuffer.testsupport.TestTenants.tenant;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.config.HttpClientConfig;
import io.restassured.config.RestAssuredConfig;
import io.restassured.response.Response;
import io.vertx.mutiny.sqlclient.Pool;
import io.webhookbuffer.testsupport.BusyPool;
import io.webhookbuffer.testsupport.Events;
import io.webhookbuffer.testsupport.Signed;
import io.webhookbuffer.testsupport.TestTenants;

/**
 * A request never waits for a tenant lookup longer than {@code buffer.tenants.lookup-timeout} (2 s): with the pool
 * busy, the lookup of a tenant this replica does not hold used to wait for the pool's own 30 s connection timeout,
 * the sender's request held open all that time. Now it is a 503 with Retry-After (never a 404: nothing is known of the
 * id), and the tenant is found once the pool is free.
 */
@QuarkusTest
class TenantLookupDeadlineTests {

    private static final long LOCK = 7_304_216L;

    @Inject
    TenantDirectory directory;

    @Inject
    TenantConfig config;

    @Inject
    Pool pool;

    @Inject
    AgroalDataSource direct;

    @ConfigProperty(name = "quarkus.datasource.reactive.max-size")
    int poolSize;

    @Test
    void aLookupTheBusyPoolCannotAnswerFailsAtTheDeadlineWith503() throws Exception {
        Events.post(tenant().provision(), "first").then().statusCode(202); // the commit path keeps its connection
        String t = tenant().provision(); // not held here: provisioning loads nothing into the cache
        try (BusyPool busy = BusyPool.hold(direct, pool, poolSize, LOCK)) {
            ExecutionException timedOut = assertThrows(ExecutionException.class, () -> directory.find(t)
                    .toCompletableFuture().get(config.lookupTimeout().toMillis() + 3_000, TimeUnit.MILLISECONDS));
            assertTrue(timedOut.getCause() instanceof LookupTimedOut, "the deadline, not the pool's: " + timedOut);

            // Fails the test, rather than hangs it, when no answer comes within 10 s.
            Response answer = Signed.webhook(TestTenants.DEFAULT_SECRET, Events.body("while-busy"))
                    .header("X-Event-ID", "while-busy").config(answeredWithin(10_000)).post("/webhook/" + t);
            assertEquals(503, answer.statusCode(), answer.asString());
            assertNotNull(answer.header("Retry-After"));
            assertEquals(0, busy.finished(), "all of it happened while the pool was busy");
        }
        assertEquals(t, directory.find(t).toCompletableFuture().get(5, TimeUnit.SECONDS).id(), "found once it is free");
        Events.post(t, "after").then().statusCode(202);
    }

    private static RestAssuredConfig answeredWithin(int millis) {
        return RestAssuredConfig.config().httpClient(HttpClientConfig.httpClientConfig()
                .setParam("http.socket.timeout", millis).setParam("http.connection.timeout", millis));
    }
}
