package io.webhookbuffer.ingress;

import java.util.Map;

import io.quarkus.test.junit.QuarkusTestProfile;

/**
 * One app for two tests that provision no tenant: the webhook port's connection cap shrunk to 4 (so its overflow,
 * answered 503, is the minimum 16) for ConnectionCapTests, and no control secret for UnconfiguredControlTests (every
 * command refused). Neither setting touches the other test: ConnectionCapTests sends no command (it probes
 * {@code /q/health/live} on the webhook port), and UnconfiguredControlTests' commands go to Quarkus's port, which the
 * cap does not cover.
 */
public class ConnectionCapProfile implements QuarkusTestProfile {

    public static final int MAX_CONNECTIONS = 4;
    /** At least 16 past the cap are still answered (a tenth of it otherwise). */
    public static final int OVERFLOW = 16;

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("buffer.ingress.max-connections", Integer.toString(MAX_CONNECTIONS),
                "buffer.control.secret", "");
    }
}
