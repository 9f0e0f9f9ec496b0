package io.webhookbuffer.delivery;

import java.util.HashMap;
import java.util.Map;

/**
 * The application of {@link BisectionTests} and {@link SweepBudgetTests} (issue 42 item 5: one Quarkus build and boot
 * for both). Delivery against the fake origin with:
 * <ul>
 * <li>backoff 20 ms doubling to 200 ms and a {@code max-age} of {@value #MAX_AGE_MILLIS} ms, for the bisection: short
 * beside the default 72 h, and what the bisection test waits for at its end (its last poison, failing alone with no
 * other batch accepted since, is dead-lettered when it is that old);
 * <li>one delivery slot and a sweep that never fires by itself (the test calls it), for the sweep budget: the sweep
 * keeps at most {@link DrainSweep#DRAINS_PER_SLOT} drains running, and the refills of the one call must drain every
 * tenant. The bisection's tenant has one batch in flight at a time whatever the slots, and its drains are woken by
 * its resume and its backoff, never by a periodic sweep.
 * </ul>
 * The sweep budget's events never fail, so the backoff and {@code max-age} never come into it.
 */
public class OneSlotShortAgeProfile extends DeliveryProfile {

    public static final long MAX_AGE_MILLIS = 8_000;
    public static final int SWEEP_BATCH = DrainSweep.DRAINS_PER_SLOT;

    @Override
    public Map<String, String> getConfigOverrides() {
        Map<String, String> config = new HashMap<>(super.getConfigOverrides());
        config.put("buffer.delivery.backoff-base", "20ms");
        config.put("buffer.delivery.backoff-cap", "200ms");
        config.put("buffer.delivery.max-age", MAX_AGE_MILLIS + "ms");
        config.put("buffer.delivery.sweep-interval", "1h");
        config.put("buffer.delivery.max-concurrent", "1");
        return config;
    }
}
