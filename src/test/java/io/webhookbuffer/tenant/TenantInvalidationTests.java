package io.webhookbuffer.tenant;

import static io.webhookbuffer.testsupport.TestTenants.tenant;
import static org.awaitility.Awaitility.await;

import java.time.Duration;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import io.webhookbuffer.testsupport.Signed;
import io.webhookbuffer.testsupport.TestTenants;

/**
 * A change made by another replica reaches this one within a second: the other replica writes PostgreSQL and
 * publishes the tenant id on Redis; here, the test plays the other replica.
 */
@QuarkusTest
class TenantInvalidationTests {

    @Inject
    Pool pool;

    @Inject
    RedisDataSource redis;

    @Test
    void changeAnnouncedOnRedisIsVisibleWithinOneSecond() {
        String t = tenant().provision();
        Signed.webhook(TestTenants.DEFAULT_SECRET, "{\"a\":1}").post("/webhook/" + t).then().statusCode(202);

        // Another replica deactivates the tenant: row first, then the announcement.
        pool.preparedQuery("UPDATE tenants SET active = false WHERE tenant_id = $1").execute(Tuple.of(t))
                .await().indefinitely();
        redis.pubsub(String.class).publish(TenantInvalidation.CHANNEL, t);

        await().atMost(Duration.ofSeconds(1)).pollInterval(Duration.ofMillis(50))
                .until(() -> Signed.webhook(TestTenants.DEFAULT_SECRET, "{\"a\":" + System.nanoTime() + "}")
                        .post("/webhook/" + t).statusCode() == 404);
    }
}
