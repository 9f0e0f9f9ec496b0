package io.webhookbuffer.egress;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.webhookbuffer.delivery.DeliveryProfile;
import io.webhookbuffer.testsupport.FakeOriginResource;

/**
 * Delivery on against the fake origin (the global origin, 127.0.0.1), tenant origins allowed under
 * {@code *.allowed.test} (names the fixtures' hosts file resolves), the origin pull on, and the control plane's URL a
 * redirector. Addresses: the test profile's own, 127.0.0.1/32 only.
 */
public class OriginTrustProfile extends DeliveryProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        Map<String, String> config = new HashMap<>(super.getConfigOverrides());
        config.put("buffer.origin.allowed-hosts", "*.allowed.test");
        config.put("buffer.tenants.origin-pull.enabled", "true");
        // Vert.x's own resolver (the one that reads the fixtures' hosts file) instead of the JDK's, which Quarkus
        // uses by default: the buffer resolves through whichever the client uses, and the JDK's cannot be given
        // test names on Java 17. EgressFixtures clears the switch an earlier application of this JVM left set.
        config.put("quarkus.vertx.use-async-dns", "true");
        return config;
    }

    @Override
    public List<TestResourceEntry> testResources() {
        return List.of(new TestResourceEntry(FakeOriginResource.class), new TestResourceEntry(EgressFixtures.class));
    }
}
