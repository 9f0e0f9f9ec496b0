package io.webhookbuffer.ops;

import java.util.Map;

import io.quarkus.test.junit.QuarkusTestProfile;
import io.webhookbuffer.controlplane.ControlPlaneProfile;

/** The split of k8s/ and compose: a management port of its own (a free one), and the status page on. */
public class ManagementPortProfile implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("buffer.management.port", "0", "buffer.status.token", ControlPlaneProfile.STATUS_TOKEN);
    }
}
