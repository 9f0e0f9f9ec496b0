package io.webhookbuffer.controlplane;

import static io.webhookbuffer.testsupport.TestTenants.tenant;
import static org.hamcrest.Matchers.equalTo;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.webhookbuffer.ingress.ConnectionCapProfile;
import io.webhookbuffer.testsupport.Signed;

/**
 * Fail closed: with no control secret configured, every command is refused, however it is signed. The app has no
 * control secret ({@link ConnectionCapProfile}, shared with ConnectionCapTests, whose cap is on the webhook port only).
 */
@QuarkusTest
@TestProfile(ConnectionCapProfile.class)
class UnconfiguredControlTests {

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
