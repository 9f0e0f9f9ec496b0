package io.webhookbuffer.delivery;

import java.util.HashMap;
import java.util.Map;

/**
 * Delivery against the fake origin with backoff in tens of milliseconds, few attempts and a short {@code max-age}:
 * the application of {@link BisectionTests} and {@link CompressedOutageTests} (issue 42 item 5: one Quarkus build and
 * boot for both). Each setting serves both:
 * <ul>
 * <li>backoff 20 ms doubling to {@value #BACKOFF_CAP_MILLIS} ms: the outage lasts twenty times
 * {@code max-attempts × backoff-cap}, and the bisection halves one step per backoff;
 * <li>{@value #MAX_ATTEMPTS} attempts: only an event that failed alone while the origin accepted another batch counts
 * one, which a poison does and a good event (accepted alone) never does;
 * <li>{@code max-age} {@value #MAX_AGE_MILLIS} ms: short beside the default 72 h, so the bisection must set the
 * poisons aside before the good events behind them age out, and longer than the compressed outage (6 s on the
 * drainer's clock, which stays that far ahead for the tests that follow) plus the real time of either test.
 * </ul>
 */
public class ShortBackoffProfile extends DeliveryProfile {

    public static final long BACKOFF_CAP_MILLIS = 100;
    public static final int MAX_ATTEMPTS = 3;
    public static final long MAX_AGE_MILLIS = 20_000;

    @Override
    public Map<String, String> getConfigOverrides() {
        Map<String, String> config = new HashMap<>(super.getConfigOverrides());
        config.put("buffer.delivery.backoff-base", "20ms");
        config.put("buffer.delivery.backoff-cap", BACKOFF_CAP_MILLIS + "ms");
        config.put("buffer.delivery.max-attempts", Integer.toString(MAX_ATTEMPTS));
        config.put("buffer.delivery.max-age", MAX_AGE_MILLIS + "ms");
        return config;
    }
}
