package io.webhookbuffer.delivery;

import java.util.HashMap;
import java.util.Map;

/** Delivery on, a sweep that never fires by itself (the test calls it) and that keeps at most 3 drains running. */
public class SweepBudgetProfile extends DeliveryProfile {

    public static final int SWEEP_BATCH = 3;

    @Override
    public Map<String, String> getConfigOverrides() {
        Map<String, String> overrides = new HashMap<>(super.getConfigOverrides());
        overrides.put("buffer.delivery.sweep-interval", "1h");
        overrides.put("buffer.delivery.sweep-batch", Integer.toString(SWEEP_BATCH));
        return overrides;
    }
}
