package io.webhookbuffer.tenant;

import static io.webhookbuffer.testsupport.TestTenants.tenant;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import io.webhookbuffer.testsupport.Signed;
import io.webhookbuffer.testsupport.TestTenants;

/**
 * A change whose Redis announcement never came (Redis down, or the announcing replica died first) still reaches this
 * replica within {@code buffer.tenants.cache-refresh}: the directory asks PostgreSQL which rows' updated_at moved.
 */
@QuarkusTest
class TenantChangePollTests {

    @Inject
    Pool pool;

    @Inject
    TenantConfig config;

    @Inject
    TenantDirectory directory;

    @Test
    void aChangeThatWasNeverAnnouncedIsFoundByTheNextLookAtChangedRows() {
        String t = tenant().provision();
        post(t, 202); // cached now, as active

        // Another replica deactivates the tenant the way the control plane does (row and updated_at, its own clock
        // a few seconds behind the database's), and announces nothing.
        pool.preparedQuery("UPDATE tenants SET active = false, updated_at = now() - interval '3 seconds' "
                + "WHERE tenant_id = $1").execute(Tuple.of(t)).await().indefinitely();

        // The scheduled look (every cache-refresh) finds it: this test is what proves the job runs on its own.
        await().atMost(config.cacheRefresh().plusSeconds(5)).pollInterval(Duration.ofMillis(100))
                .until(() -> status(t) == 404);
    }

    @Test
    void aTenantWhoseRowDidNotChangeStaysCached() {
        String t = tenant().provision();
        // Created long ago, as far as the looks can tell: none of them will find this row.
        pool.preparedQuery("UPDATE tenants SET updated_at = now() - interval '1 hour' WHERE tenant_id = $1")
                .execute(Tuple.of(t)).await().indefinitely();
        post(t, 202);
        // Edited by hand without touching updated_at: no look finds it, so the cached tenant keeps serving until
        // cache-ttl (60 s), which shows the looks forget what changed and nothing else.
        pool.preparedQuery("UPDATE tenants SET active = false WHERE tenant_id = $1").execute(Tuple.of(t))
                .await().indefinitely();
        // Two looks (what waiting two intervals gave), run now; a reload one of them started would end within
        // lookup-timeout, so the tenant serving that long after them shows neither found the row.
        look();
        look();
        await().during(config.lookupTimeout()).atMost(config.lookupTimeout().multipliedBy(3))
                .pollInterval(Duration.ofMillis(250)).until(() -> status(t) == 202);
    }

    /**
     * One look at changed rows, as the scheduled job ({@code buffer.tenants.cache-refresh}) runs it every interval:
     * it ends when it has started the reloads of what it found (each ends within {@code lookup-timeout}).
     */
    private void look() {
        directory.followChanges().await().atMost(Duration.ofSeconds(10));
    }

    private static void post(String t, int expected) {
        assertEquals(expected, status(t));
    }

    private static int status(String t) {
        return Signed.webhook(TestTenants.DEFAULT_SECRET, "{\"a\":" + System.nanoTime() + "}").post("/webhook/" + t)
                .statusCode();
    }
}
