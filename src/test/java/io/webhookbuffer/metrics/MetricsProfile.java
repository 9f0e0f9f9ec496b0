package io.webhookbuffer.metrics;

import java.util.HashMap;
import java.util.Map;

import io.webhookbuffer.delivery.DeliveryProfile;

/**
 * Delivery against the fake origin (as {@link DeliveryProfile}), with a breaker that opens after a few failures and
 * room in the top-N gauges for every tenant the shared test database may hold.
 */
public class MetricsProfile extends DeliveryProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        Map<String, String> overrides = new HashMap<>(super.getConfigOverrides());
        overrides.put("buffer.delivery.circuit-breaker.request-volume", "4");
        overrides.put("buffer.delivery.circuit-breaker.delay", "1s");
        overrides.put("buffer.delivery.max-attempts", "1000");
        overrides.put("buffer.metrics.top-tenants", "1000");
        overrides.put("buffer.queue.snapshot-tenants", "10000");
        overrides.put("buffer.queue.snapshot-interval", "1s");
        return overrides;
    }
}
