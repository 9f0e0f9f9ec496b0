package io.webhookbuffer.delivery;

import java.util.List;
import java.util.Map;

import io.quarkus.test.junit.QuarkusTestProfile;
import io.webhookbuffer.testsupport.FakeOriginResource;

/** Delivery on, against a fake origin, with timings shrunk to milliseconds. */
public class DeliveryProfile implements QuarkusTestProfile {

    public static final int BULKHEAD = 3;
    public static final long BACKOFF_CAP_MILLIS = 400;
    public static final int MAX_ATTEMPTS = 10;

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.ofEntries(
                Map.entry("buffer.delivery.enabled", "true"),
                Map.entry("buffer.delivery.backoff-base", "50ms"),
                Map.entry("buffer.delivery.backoff-cap", BACKOFF_CAP_MILLIS + "ms"),
                Map.entry("buffer.delivery.max-attempts", Integer.toString(MAX_ATTEMPTS)),
                Map.entry("buffer.delivery.sweep-interval", "500ms"),
                Map.entry("buffer.delivery.lease-ttl", "3s"),
                Map.entry("buffer.delivery.max-concurrent", Integer.toString(BULKHEAD)),
                Map.entry("buffer.delivery.request-timeout", "2s"),
                Map.entry("buffer.delivery.circuit-breaker.request-volume", "100000"));
    }

    @Override
    public List<TestResourceEntry> testResources() {
        return List.of(new TestResourceEntry(FakeOriginResource.class));
    }
}
