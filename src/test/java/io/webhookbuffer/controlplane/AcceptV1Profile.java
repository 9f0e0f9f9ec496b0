package io.webhookbuffer.controlplane;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.webhookbuffer.testsupport.FakeOriginResource;
import io.webhookbuffer.testsupport.RedisProxyResource;

/**
 * The seam profile with the production defaults for signing (v1 pushes, v1 commands accepted: the test profile
 * accepts v2 only), a control plane that records the pushes ({@link PushReplayTests.RecordingControlPlane}) and Redis
 * behind a proxy the test can cut: one application for {@link PushReplayTests} and {@link V1CompatibilityTests}.
 */
public class AcceptV1Profile extends ControlPlaneProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        Map<String, String> config = new HashMap<>(super.getConfigOverrides());
        config.put("buffer.control.accept-v1", "true"); // the production default (the test profile sets false)
        return config;
    }

    @Override
    public List<TestResourceEntry> testResources() {
        return List.of(new TestResourceEntry(FakeOriginResource.class),
                new TestResourceEntry(PushReplayTests.RecordingControlPlane.class),
                new TestResourceEntry(RedisProxyResource.class));
    }
}
