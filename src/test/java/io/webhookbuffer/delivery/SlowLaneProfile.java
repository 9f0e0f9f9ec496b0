package io.webhookbuffer.delivery;

import java.util.HashMap;
import java.util.Map;

/**
 * Delivery on with 3 slots and a request timeout long enough for an origin that answers after seconds: the slow
 * threshold (a tenth of the timeout) is 800 ms, far below the tarpits' 6 s.
 */
public class SlowLaneProfile extends DeliveryProfile {

    public static final long REQUEST_TIMEOUT_MILLIS = 8_000;

    @Override
    public Map<String, String> getConfigOverrides() {
        Map<String, String> overrides = new HashMap<>(super.getConfigOverrides());
        overrides.put("buffer.delivery.request-timeout", REQUEST_TIMEOUT_MILLIS + "ms");
        overrides.put("buffer.delivery.lease-ttl", "12s");
        return overrides;
    }
}
