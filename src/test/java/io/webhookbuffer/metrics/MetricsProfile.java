package io.webhookbuffer.metrics;

import java.util.HashMap;
import java.util.Map;

import io.webhookbuffer.delivery.DeliveryProfile;

/**
 * Delivery against the fake origin (as {@link DeliveryProfile}), with a breaker that opens after a few failures and
 * room in the top-N gauges for every tenant the shared test database may hold. Also the application of
 * {@code delivery.CircuitBreakerTests} (issue 42 item 5: one Quarkus build and boot for both): the breaker's delay is
 * long beside the backoff cap (so a gap that long is the breaker's, not the backoff's), and a first try is sent at
 * once (no linger), which the scenario's counts allow for (one batch or two).
 */
public class MetricsProfile extends DeliveryProfile {

    public static final long BREAKER_DELAY_MILLIS = 1500;

    @Override
    public Map<String, String> getConfigOverrides() {
        Map<String, String> overrides = new HashMap<>(super.getConfigOverrides());
        overrides.put("buffer.delivery.circuit-breaker.request-volume", "4");
        overrides.put("buffer.delivery.circuit-breaker.delay", BREAKER_DELAY_MILLIS + "ms");
        overrides.put("buffer.delivery.max-attempts", "1000");
        overrides.put("buffer.delivery.linger", "0ms");
        overrides.put("buffer.metrics.top-tenants", "1000");
        overrides.put("buffer.queue.snapshot-tenants", "10000");
        overrides.put("buffer.queue.snapshot-interval", "1s");
        return overrides;
    }
}
