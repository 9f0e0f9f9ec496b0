package io.webhookbuffer.trace;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.quarkus.test.junit.QuarkusTestProfile;
import io.webhookbuffer.delivery.DeliveryProfile;
import io.webhookbuffer.testsupport.FakeOriginResource;
import io.webhookbuffer.testsupport.OtlpReceiverResource;

/**
 * The one profile with tracing on: delivery to a fake origin (as {@link DeliveryProfile}) and the trace exporter
 * pointed at a real OTLP/HTTP receiver in the test, which alone turns tracing on (no other tracing setting).
 */
public class TracingProfile implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        return new HashMap<>(new DeliveryProfile().getConfigOverrides());
    }

    @Override
    public List<TestResourceEntry> testResources() {
        return List.of(new TestResourceEntry(FakeOriginResource.class), new TestResourceEntry(OtlpReceiverResource.class));
    }
}
