package io.webhookbuffer.secrets;

import java.util.List;
import java.util.Map;

import io.quarkus.test.junit.QuarkusTestProfile;
import io.webhookbuffer.testsupport.ThrowawayDatabaseResource;

/**
 * Mid-rotation: two keys listed, the new one active, on a database of its own (so the pass sees this test's tenants
 * only, and the shared test database keeps its own key).
 */
public class RotationProfile implements QuarkusTestProfile {

    static final String OLD = "old:" + SecretCipherTests.key(0x5a);
    static final String NEW = "new:" + SecretCipherTests.key(0xa5);

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("buffer.secrets.keys", OLD + "," + NEW, "buffer.secrets.active-key", "new");
    }

    @Override
    public List<TestResourceEntry> testResources() {
        return List.of(new TestResourceEntry(ThrowawayDatabaseResource.class, Map.of("name", "rotation")));
    }
}
