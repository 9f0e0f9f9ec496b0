package io.webhookbuffer.ingress;

import java.util.Map;

import io.quarkus.test.junit.QuarkusTestProfile;

/** A failed-verification guard at 40 per tenant (a forged 3 MiB body counts 48), so a test reaches it at once. */
public class FailedVerificationProfile implements QuarkusTestProfile {

    public static final int PER_TENANT = 40;

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("buffer.ingress.verification.max-failures-per-tenant", Integer.toString(PER_TENANT));
    }
}
