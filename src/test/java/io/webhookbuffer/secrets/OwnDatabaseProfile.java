package io.webhookbuffer.secrets;

import java.util.List;
import java.util.Map;

import io.quarkus.test.junit.QuarkusTestProfile;
import io.webhookbuffer.testsupport.ThrowawayDatabaseResource;

/**
 * One app on a database of its own ({@code <test database>_rotation}, made afresh), for two tests whose settings do
 * not meet (one Quarkus build and boot instead of two; docs/testing.md):
 * <ul>
 * <li>SecretsRotationTests: mid-rotation, two keys listed, the new one active, so the pass sees this app's tenants
 * only and the shared test database keeps its own key (each of its tests starts by deleting every tenant);</li>
 * <li>QueueQuotaTests: a small default quota, a storage guard, and a backlog snapshot that runs once at start and then
 * only when the test calls it, so what the replica knows of the database's figures changes only when the test says
 * so (on a database of its own, nothing another test left queued counts towards it). Its tenants are sealed under the
 * active key like any other; the rotation's tests never queue an event.</li>
 * </ul>
 */
public class OwnDatabaseProfile implements QuarkusTestProfile {

    static final String OLD = "old:" + SecretCipherTests.key(0x5a);
    static final String NEW = "new:" + SecretCipherTests.key(0xa5);
    public static final int DEFAULT_QUOTA = 4096;
    /** The storage guard: far above what the quota tests queue besides the guard's own rows. */
    public static final long STORAGE = 64L << 20;

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("buffer.secrets.keys", OLD + "," + NEW, "buffer.secrets.active-key", "new",
                "buffer.queue.max-queued-bytes-per-tenant", Integer.toString(DEFAULT_QUOTA),
                "buffer.queue.snapshot-interval", "1h", "buffer.queue.max-queued-bytes", Long.toString(STORAGE));
    }

    @Override
    public List<TestResourceEntry> testResources() {
        return List.of(new TestResourceEntry(ThrowawayDatabaseResource.class, Map.of("name", "rotation")));
    }
}
