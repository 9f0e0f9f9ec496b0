package io.webhookbuffer.delivery;

import java.util.HashMap;
import java.util.Map;

/**
 * Delivery on, a sweep that never fires by itself (the test calls it), and one delivery slot, so that the sweep keeps
 * at most {@link DrainSweep#DRAINS_PER_SLOT} drains running.
 */
public class SweepBudgetProfile extends DeliveryProfile {

    public static final int SWEEP_BATCH = DrainSweep.DRAINS_PER_SLOT;

    @Override
    public Map<String, String> getConfigOverrides() {
        Map<String, String> overrides = new HashMap<>(super.getConfigOverrides());
        overrides.put("buffer.delivery.sweep-interval", "1h");
        overrides.put("buffer.delivery.max-concurrent", "1");
        return overrides;
    }
}
