package io.webhookbuffer.fairness;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.webhookbuffer.delivery.DeliveryProfile;
import io.webhookbuffer.testsupport.FakeOriginResource;
import io.webhookbuffer.testsupport.OtlpReceiverResource;

/**
 * Delivery on against a fake origin ({@link DeliveryProfile}: three delivery slots, 2 s request timeout), with the
 * edge's budgets and deadlines shrunk so that one attacker (NoisyNeighbourTests) or one slow sender (SlowSendersTests,
 * InFlightSharesTests: one app for the three) on a test machine can reach them: 400 KiB of bodies in flight (a body
 * ceiling of 200 KiB; a tenant's share, half of the budget, must hold the largest body), the idle timeout 3 s, the
 * head deadline 1 s and the body deadline 2 s (below the idle timeout, so a head or body dribbled faster than that
 * meets its deadline, not the idle timeout). The noisy neighbour's requests send their heads at once and are answered
 * in milliseconds, far inside the shorter deadlines; delivery is what it checks, and the slow senders' tests count
 * what was stored by its dedupe rows, which delivery leaves.
 * <p>
 * Tracing is on here, and in no other test application: the trace exporter points at a real OTLP/HTTP receiver
 * ({@link OtlpReceiverResource}), which alone turns it on, for TracingTests, which runs after the others (its name
 * sorts last) and reads only the spans of the tenants it provisions; the others' verified events add spans to the
 * export, forged and unknown-tenant requests none.
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
        overrides.put("buffer.ingress.head-timeout", "1s");
        overrides.put("quarkus.http.idle-timeout", "3s");
        return overrides;
    }

    @Override
    public List<TestResourceEntry> testResources() {
        return List.of(new TestResourceEntry(FakeOriginResource.class), new TestResourceEntry(OtlpReceiverResource.class));
    }
}
