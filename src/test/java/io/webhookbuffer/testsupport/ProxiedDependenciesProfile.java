package io.webhookbuffer.testsupport;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.quarkus.test.junit.QuarkusTestProfile;

/**
 * One app for the tests that cut PostgreSQL or Redis: its reactive connections go through a {@link TcpProxy} to each
 * ({@link InjectProxy}, {@link InjectRedisProxy}), and its settings are what those tests need together (one Quarkus
 * boot instead of four; docs/testing.md).
 * <ul>
 * <li>probes answer within {@link #HEALTH_TIMEOUT} and Redis is checked every 500 ms, so readiness and the Redis
 * fallback follow a cut quickly;</li>
 * <li>a commit not answered in {@link #WRITE_TIMEOUT} is a 503, and a tenant's mailbox holds 2 events, so a stalled
 * PostgreSQL fills it with two requests;</li>
 * <li>no periodic look at changed tenants: a look reloads a tenant changed in the last ten seconds (TenantDirectory's
 * LOOK_BACK), and while PostgreSQL is cut such a reload fails and forgets it, so the next event's lookup would race
 * the reconnection. The tests here are about commits and probes.</li>
 * </ul>
 */
public class ProxiedDependenciesProfile implements QuarkusTestProfile {

    public static final Duration HEALTH_TIMEOUT = Duration.ofSeconds(1);
    /**
     * Long enough that two stalled events are surely in the mailbox before the first of them times out, on a slow
     * machine too (at 1 s, CI once saw the first answered before the second arrived: the mailbox never held two), and
     * that a commit whose answer was lost is retried within it.
     */
    public static final Duration WRITE_TIMEOUT = Duration.ofSeconds(4);

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("buffer.health.timeout", HEALTH_TIMEOUT.toMillis() + "ms",
                "buffer.health.redis-interval", "500ms",
                "buffer.queue.write-timeout", WRITE_TIMEOUT.toMillis() + "ms",
                "buffer.actor.mailbox-capacity", "2",
                "buffer.tenants.cache-refresh", "1h");
    }

    @Override
    public List<TestResourceEntry> testResources() {
        return List.of(new TestResourceEntry(PostgresProxyResource.class),
                new TestResourceEntry(RedisProxyResource.class));
    }
}
