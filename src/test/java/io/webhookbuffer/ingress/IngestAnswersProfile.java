package io.webhookbuffer.ingress;

import java.util.List;
import java.util.Map;

import io.quarkus.test.junit.QuarkusTestProfile;
import io.webhookbuffer.testsupport.PostgresProxyResource;

/**
 * What {@link IngestAnswersContract} needs to reach every ingest answer in a few requests: the database behind a
 * proxy a test can cut or stall (503 {@code not_stored}, {@code tenant_overloaded} with a mailbox of 2), no room on
 * the verification pool for a body of 4 KiB or more (503 {@code verification_busy}).
 */
public class IngestAnswersProfile implements QuarkusTestProfile {

    static final int OFFLOAD_BYTES = 4096;

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("buffer.ingress.verification.offload-bytes", Integer.toString(OFFLOAD_BYTES),
                "buffer.ingress.verification.max-pending", "0",
                "buffer.queue.write-timeout", "1s",
                "buffer.actor.mailbox-capacity", "2");
    }

    @Override
    public List<TestResourceEntry> testResources() {
        return List.of(new TestResourceEntry(PostgresProxyResource.class));
    }
}
