package io.webhookbuffer.controlplane;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.webhookbuffer.delivery.DeliveryProfile;
import io.webhookbuffer.testsupport.ControlPlaneResource;
import io.webhookbuffer.testsupport.FakeOriginResource;

/**
 * Delivery on against a fake origin, and the demo control plane as {@code buffer.control.url}. The scheduled pushes
 * keep their hourly defaults (their first run is an hour after start), so tests run each job on demand.
 */
public class ControlPlaneProfile extends DeliveryProfile {

    public static final int BACKLOG_THRESHOLD = 3;

    @Override
    public Map<String, String> getConfigOverrides() {
        Map<String, String> config = new HashMap<>(super.getConfigOverrides());
        config.put("buffer.lifecycle.backlog-threshold", Integer.toString(BACKLOG_THRESHOLD));
        config.put("buffer.lifecycle.origin-failing-after", "1s");
        config.put("buffer.delivery.max-attempts", "10000"); // a failing origin keeps its events queued
        return config;
    }

    @Override
    public List<TestResourceEntry> testResources() {
        return List.of(new TestResourceEntry(FakeOriginResource.class), new TestResourceEntry(ControlPlaneResource.class));
    }
}
