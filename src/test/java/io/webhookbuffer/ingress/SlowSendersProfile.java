package io.webhookbuffer.ingress;

import java.util.Map;

import io.quarkus.test.junit.QuarkusTestProfile;

/**
 * Slow-sender limits shrunk to test size: the idle timeout to 3 s, the head deadline to 1 s and the body deadline to
 * 2 s (below the idle timeout, so a head or body dribbled faster than that meets its deadline, not the idle timeout),
 * and a replica budget for bodies in
 * flight of 400 KiB (the body ceiling and the default limit shrink with it: a tenant's share, half of the budget, must
 * hold the largest body).
 */
public class SlowSendersProfile implements QuarkusTestProfile {

    public static final long IN_FLIGHT_BYTES = 400 * 1024;

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("quarkus.http.idle-timeout", "3s", "buffer.ingress.head-timeout", "1s",
                "buffer.ingress.body-timeout", "2s",
                "buffer.ingress.max-in-flight-bytes", Long.toString(IN_FLIGHT_BYTES),
                "quarkus.http.limits.max-body-size", "200K",
                "buffer.ingress.max-body-bytes", "102400");
    }
}
