package io.webhookbuffer.status;

import java.util.HashMap;
import java.util.Map;

import io.webhookbuffer.delivery.DeliveryProfile;

/** Delivery against the fake origin, a status token, a fresh snapshot every second, events kept while failing. */
public class StatusProfile extends DeliveryProfile {

    public static final String TOKEN = "status-token-for-tests-0123456789";

    @Override
    public Map<String, String> getConfigOverrides() {
        Map<String, String> overrides = new HashMap<>(super.getConfigOverrides());
        overrides.put("buffer.status.token", TOKEN);
        overrides.put("buffer.queue.snapshot-interval", "1s");
        overrides.put("buffer.delivery.max-attempts", "1000");
        // A batch the test holds at the origin stays in flight (queued, not failed) for the whole test.
        overrides.put("buffer.delivery.request-timeout", "60s");
        overrides.put("buffer.delivery.lease-ttl", "70s");
        return overrides;
    }
}
