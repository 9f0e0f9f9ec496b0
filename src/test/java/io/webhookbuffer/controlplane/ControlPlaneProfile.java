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
 *
 * <p>Also the application of the status page's tests ({@code status.StatusPageTests}, {@code StatusSignInTests};
 * issue 42 item 5: one Quarkus build and boot fewer): a status token, a fresh backlog snapshot every second, and a
 * request timeout of a minute, so a batch a test holds at the origin stays in flight (queued, not failed) for the whole
 * test. None of the control-plane tests makes its origin wait, reads the status page or the snapshot, or loses a
 * lease; the lifecycle settings are read by the control plane's jobs only, which run on demand.
 */
public class ControlPlaneProfile extends DeliveryProfile {

    public static final int BACKLOG_THRESHOLD = 3;
    public static final String STATUS_TOKEN = "status-token-for-tests-0123456789";

    @Override
    public Map<String, String> getConfigOverrides() {
        Map<String, String> config = new HashMap<>(super.getConfigOverrides());
        config.put("buffer.lifecycle.backlog-threshold", Integer.toString(BACKLOG_THRESHOLD));
        config.put("buffer.lifecycle.origin-failing-after", "1s");
        config.put("buffer.delivery.max-attempts", "10000"); // a failing origin keeps its events queued
        config.put("buffer.status.token", STATUS_TOKEN);
        config.put("buffer.queue.snapshot-interval", "1s");
        config.put("buffer.delivery.request-timeout", "60s");
        config.put("buffer.delivery.lease-ttl", "70s");
        return config;
    }

    @Override
    public List<TestResourceEntry> testResources() {
        return List.of(new TestResourceEntry(FakeOriginResource.class), new TestResourceEntry(ControlPlaneResource.class));
    }
}
