package io.webhookbuffer.controlplane;

import static io.webhookbuffer.testsupport.TestTenants.tenant;
import static org.hamcrest.Matchers.equalTo;

import java.util.Map;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.webhookbuffer.testsupport.Signed;

/** Fail closed: with no control secret configured, every command is refused, however it is signed. */
@QuarkusTest
@TestProfile(UnconfiguredControlTests.NoControlSecret.class)
class UnconfiguredControlTests {

    public static class NoControlSecret implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("buffer.control.secret", "");
        }
    }

    @Test
    void everyCommandIsRefusedAsNotConfigured() {
        Signed.command(tenant().json()).put("/control/tenants/unconfigured-1")
                .then().statusCode(401).body("reason", equalTo("not_configured"));
        Signed.command(tenant().json(), System.currentTimeMillis() / 1000, Signed.nonce(), "any-guess-at-a-secret")
                .put("/control/tenants/unconfigured-1")
                .then().statusCode(401).body("reason", equalTo("not_configured"));
        Signed.command("").get("/control/tenants/unconfigured-1")
                .then().statusCode(401).body("reason", equalTo("not_configured"));
    }
}
