package io.webhookbuffer.delivery;

import java.util.HashMap;
import java.util.Map;

/**
 * The application of {@link CompressedOutageTests} and {@link SlowLaneTests} (issue 42 item 5: one Quarkus build and
 * boot for both). Delivery against the fake origin with:
 * <ul>
 * <li>backoff 20 ms doubling to {@value #BACKOFF_CAP_MILLIS} ms and {@value #MAX_ATTEMPTS} attempts, for the
 * compressed outage, which lasts twenty times {@code max-attempts × backoff-cap};
 * <li>a request timeout of {@value #REQUEST_TIMEOUT_MILLIS} ms, long enough for an origin that answers after seconds,
 * so the slow threshold (a tenth of the timeout) is 800 ms, far below the slow lane's tarpits' 6 s; and a lease of
 * 12 s, longer than a tarpit's answer.
 * </ul>
 * The tarpits answer 200, so the backoff and the attempts never come into the slow lane's test; the compressed
 * outage's origin refuses connections or answers at once, so the timeout never comes into it, and neither test loses
 * a lease.
 */
public class ShortBackoffProfile extends DeliveryProfile {

    public static final long BACKOFF_CAP_MILLIS = 100;
    public static final int MAX_ATTEMPTS = 3;
    public static final long REQUEST_TIMEOUT_MILLIS = 8_000;

    @Override
    public Map<String, String> getConfigOverrides() {
        Map<String, String> config = new HashMap<>(super.getConfigOverrides());
        config.put("buffer.delivery.backoff-base", "20ms");
        config.put("buffer.delivery.backoff-cap", BACKOFF_CAP_MILLIS + "ms");
        config.put("buffer.delivery.max-attempts", Integer.toString(MAX_ATTEMPTS));
        config.put("buffer.delivery.request-timeout", REQUEST_TIMEOUT_MILLIS + "ms");
        config.put("buffer.delivery.lease-ttl", "12s");
        return config;
    }
}
