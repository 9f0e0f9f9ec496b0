package io.webhookbuffer.tenant;

import static io.webhookbuffer.testsupport.TestTenants.tenant;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
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
import io.webhookbuffer.secrets.SealedValueException;
import io.webhookbuffer.testsupport.BusyPool;
import io.webhookbuffer.testsupport.Db;
import io.webhookbuffer.testsupport.Events;
import io.webhookbuffer.testsupport.Signed;
import io.webhookbuffer.testsupport.TestTenants;

/**
 * Tenant lookups while the database pool is busy. A changed tenant is reloaded in the background while its cached row
 * keeps serving: a change (a command, a Redis announcement, a look at changed rows) never sends its sender's next
 * request into the pool to wait for a connection; and fail closed, a reload that cannot confirm the row, or does not
 * answer within {@code buffer.tenants.lookup-timeout} (2 s), forgets the tenant. A request never waits for a lookup
 * longer than that: the lookup of a tenant this replica does not hold used to wait for the pool's own 30 s connection
 * timeout, the sender's request held open all that time; now it is a 503 with Retry-After (never a 404: nothing is
 * known of the id).
 */
@QuarkusTest
class TenantLookupsWithABusyPoolTests {

    private static final long LOCK = 7_304_215L;

    @Inject
    TenantConfig config;

    @Inject
    TenantDirectory directory;

    @Inject
    Pool pool;

    @Inject
    AgroalDataSource direct;

    @ConfigProperty(name = "quarkus.datasource.reactive.max-size")
    int poolSize;

    @Test
    void aChangedTenantKeepsServingWhileItsReloadWaitsForABusyPoolThenIsForgottenAtTheDeadline() throws Exception {
        String t = tenant().rateLimit(1_000, 60).provision();
        // Changed long ago, as the looks at changed rows see it: none of them reloads it during the test.
        assertEquals(1, Db.execute(direct, "UPDATE tenants SET updated_at = now() - interval '1 hour' WHERE tenant_id = ?",
                t));
        Events.post(t, "before").then().statusCode(202);
        assertEquals(1_000, directory.find(t).toCompletableFuture().get(5, TimeUnit.SECONDS).rateLimit());

        CompletableFuture<Void> reload;
        try (BusyPool busy = BusyPool.hold(direct, pool, poolSize, LOCK)) {
            // Changed while the pool is held: no reload (this one, or one of the looks at changed rows) can read it yet.
            assertEquals(1, Db.execute(direct, "UPDATE tenants SET rate_limit = 7 WHERE tenant_id = ?", t));
            reload = directory.changed(t).toCompletableFuture();
            Tenant serving = directory.find(t).toCompletableFuture().get(1, TimeUnit.SECONDS);
            assertEquals(1_000, serving.rateLimit(), "the cached row serves while the reload waits");
            Events.post(t, "during").then().statusCode(202); // its commit has a connection of its own

            // Fail closed on time: at lookup-timeout the reload has not answered, and the old row is no longer served.
            reload.get(config.lookupTimeout().toMillis() + 3_000, TimeUnit.MILLISECONDS);
            ExecutionException forgotten = assertThrows(ExecutionException.class, () -> directory.find(t)
                    .toCompletableFuture().get(config.lookupTimeout().toMillis() + 3_000, TimeUnit.MILLISECONDS));
            assertTrue(forgotten.getCause() instanceof LookupTimedOut, "asked for again, not served: " + forgotten);
            assertEquals(0, busy.finished(), "all of it happened while the pool was busy");
        }
        await().atMost(Duration.ofSeconds(10)).ignoreExceptions().until(() -> directory.find(t).toCompletableFuture()
                .get(5, TimeUnit.SECONDS).rateLimit() == 7);
    }

    @Test
    void aReloadThatCannotOpenTheRowForgetsTheTenant() throws Exception {
        String t = tenant().provision();
        String other = tenant().provision();
        Events.post(t, "before").then().statusCode(202);
        // Another tenant's sealed secrets: each sealed value is bound to its tenant id, so these do not open here.
        assertEquals(1, Db.execute(direct, "UPDATE tenants SET secrets_encrypted = (SELECT secrets_encrypted FROM tenants"
                + " WHERE tenant_id = ?) WHERE tenant_id = ?", other, t));

        directory.changed(t).toCompletableFuture().get(10, TimeUnit.SECONDS);

        ExecutionException failed = assertThrows(ExecutionException.class,
                () -> directory.find(t).toCompletableFuture().get(5, TimeUnit.SECONDS));
        assertTrue(failed.getCause() instanceof SealedValueException, "the row is asked for again, and fails: " + failed);
        assertEquals(503, Events.post(t, "after").statusCode(), "never the old secrets the database no longer confirms");
    }

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
