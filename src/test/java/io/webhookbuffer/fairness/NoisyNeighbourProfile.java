package io.webhookbuffer.fairness;

import java.util.HashMap;
import java.util.Map;

import io.webhookbuffer.delivery.DeliveryProfile;

/**
 * Delivery on against a fake origin ({@link DeliveryProfile}: three delivery slots, 2 s request timeout), with the
 * edge's budgets shrunk so that one attacker on a test machine can reach them: 400 KiB of bodies in flight (a body
 * ceiling of 200 KiB), a 2 s body deadline.
 */
public class NoisyNeighbourProfile extends DeliveryProfile {

    public static final long IN_FLIGHT_BYTES = 400 * 1024;

    @Override
    public Map<String, String> getConfigOverrides() {
        Map<String, String> overrides = new HashMap<>(super.getConfigOverrides());
        overrides.put("buffer.ingress.max-in-flight-bytes", Long.toString(IN_FLIGHT_BYTES));
        overrides.put("quarkus.http.limits.max-body-size", "200K");
        overrides.put("buffer.ingress.max-body-bytes", "102400");
        overrides.put("buffer.ingress.body-timeout", "2s");
        return overrides;
    }
}
