package io.webhookbuffer.tenant;

import java.util.Map;

import io.quarkus.test.junit.QuarkusTestProfile;

/**
 * An app of its own, so no group commit has run before the flood: readiness then has no kept connection and asks the
 * pool.
 */
public class TenantFloodProfile implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("buffer.health.timeout", "1s");
    }
}
