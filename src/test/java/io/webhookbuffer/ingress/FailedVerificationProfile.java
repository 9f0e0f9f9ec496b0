package io.webhookbuffer.ingress;

import java.util.Map;

import io.quarkus.test.junit.QuarkusTestProfile;

/**
 * A failed-verification budget of 3 per address and tenant, and of 40 per tenant (a forged 3 MiB body counts 48), so a
 * test reaches them in a few requests; loopback peers counted (every test sends from 127.0.0.x).
 */
public class FailedVerificationProfile implements QuarkusTestProfile {

    public static final int PER_ADDRESS = 3;
    public static final int PER_TENANT = 40;

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("buffer.ingress.verification.max-failures-per-address", Integer.toString(PER_ADDRESS),
                "buffer.ingress.verification.max-failures-per-tenant", Integer.toString(PER_TENANT),
                "buffer.ingress.verification.count-private-addresses", "true");
    }
}
