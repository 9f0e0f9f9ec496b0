package io.webhookbuffer.tenant;

import java.util.Map;

import io.quarkus.test.junit.QuarkusTestProfile;

/**
 * A miss budget shrunk to test size (2 queries at once, 16 waiting at most 100 ms, 100 a second), in an app of its own
 * so no group commit has run before the flood: readiness then has no kept connection and asks the pool.
 */
public class TenantFloodProfile implements QuarkusTestProfile {

    public static final int MISSES_PER_SECOND = 100;
    public static final int MISS_CONCURRENCY = 2;

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("buffer.tenants.miss-budget.max-concurrent", Integer.toString(MISS_CONCURRENCY),
                "buffer.tenants.miss-budget.max-waiting", "16",
                "buffer.tenants.miss-budget.max-wait", "100ms",
                "buffer.tenants.miss-budget.per-second", Integer.toString(MISSES_PER_SECOND),
                "buffer.health.timeout", "1s");
    }
}
