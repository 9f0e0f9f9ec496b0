package io.webhookbuffer.ingress;

import java.util.Map;

import io.quarkus.test.junit.QuarkusTestProfile;

/** The webhook port's connection cap shrunk to 4 (so its overflow, answered 503, is the minimum 16). */
public class ConnectionCapProfile implements QuarkusTestProfile {

    public static final int MAX_CONNECTIONS = 4;
    /** At least 16 past the cap are still answered (a tenth of it otherwise). */
    public static final int OVERFLOW = 16;

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("buffer.ingress.max-connections", Integer.toString(MAX_CONNECTIONS));
    }
}
