package io.webhookbuffer.controlplane;

import static io.restassured.RestAssured.given;
import static io.webhookbuffer.testsupport.TestTenants.tenant;
import static org.hamcrest.Matchers.equalTo;

import java.util.UUID;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.webhookbuffer.testsupport.Signed;

/**
 * What a v2 command signature binds, against the real app: the method, the path, the query and the direction, so a
 * captured command cannot be re-sent as another one. The test profile accepts v2 only ({@code accept-v1=false});
 * {@link V1CompatibilityTests} covers the seed's v1.
 */
@QuarkusTest
class CommandBindingTests {

    private static String newId() {
        return "bind-" + UUID.randomUUID().toString().substring(0, 18);
    }

    @Test
    void aPutSignedForOneTenantIsRefusedForAnother() {
        String a = newId();
        String b = newId();
        String body = tenant().json();
        Signed.commandSignedFor("PUT", "/control/tenants/" + a, body).put("/control/tenants/" + b)
                .then().statusCode(401).body("reason", equalTo("bad_signature"));
        Signed.command("").get("/control/tenants/" + b).then().statusCode(404);
        Signed.commandSignedFor("PUT", "/control/tenants/" + a, body).put("/control/tenants/" + a)
                .then().statusCode(200).body("tenantId", equalTo(a));
    }

    @Test
    void aGetIsRefusedAsADeleteOfTheSamePath() {
        // v1 signs the same empty body for both: a captured listing would purge every dead letter.
        String id = tenant().provision();
        String path = "/control/tenants/" + id + "/dead-letters";
        Signed.commandSignedFor("GET", path, "").delete(path)
                .then().statusCode(401).body("reason", equalTo("bad_signature"));
        Signed.commandSignedFor("GET", path, "").get(path).then().statusCode(200);
    }

    @Test
    void aPostIsRefusedAsAnotherCommandOnTheSameTenant() {
        String id = tenant().provision();
        String pause = "/control/tenants/" + id + "/pause";
        Signed.commandSignedFor("POST", pause, "").post("/control/tenants/" + id + "/resume")
                .then().statusCode(401).body("reason", equalTo("bad_signature"));
        Signed.commandSignedFor("POST", pause, "").post(pause).then().statusCode(200).body("paused", equalTo(true));
    }

    @Test
    void aChangedQueryIsRefused() {
        String id = tenant().provision();
        String path = "/control/tenants/" + id + "/dead-letters";
        Signed.commandSignedFor("GET", path + "?limit=1", "").get(path + "?limit=500")
                .then().statusCode(401).body("reason", equalTo("bad_signature"));
        Signed.commandSignedFor("GET", path + "?limit=1", "").get(path)
                .then().statusCode(401).body("reason", equalTo("bad_signature"));
        Signed.commandSignedFor("GET", path, "").get(path + "?limit=1")
                .then().statusCode(401).body("reason", equalTo("bad_signature"));
        Signed.commandSignedFor("GET", path + "?limit=1", "").get(path + "?limit=1").then().statusCode(200);
    }

    @Test
    void theQueryIsSignedAsSentWithItsPercentEncoding() {
        String id = tenant().provision();
        String path = "/control/tenants/" + id + "/dead-letters";
        String encoded = path + "?from=2000-01-01T00%3A00%3A00Z";
        Signed.commandSignedFor("GET", path + "?from=2000-01-01T00:00:00Z", "").urlEncodingEnabled(false).get(encoded)
                .then().statusCode(401).body("reason", equalTo("bad_signature"));
        Signed.commandSignedFor("GET", encoded, "").urlEncodingEnabled(false).get(encoded).then().statusCode(200);
    }

    @Test
    void aPushSignatureIsRefusedAsACommand() {
        String id = tenant().provision();
        String pause = "/control/tenants/" + id + "/pause";
        long now = System.currentTimeMillis() / 1000;
        String nonce = Signed.nonce();
        String asPush = Signed.v2(Signed.CONTROL_SECRET, "push", "POST", pause, Long.toString(now), nonce, new byte[0]);
        given().header("x-timestamp", Long.toString(now)).header("x-nonce", nonce)
                .header("x-signature", asPush).post(pause)
                .then().statusCode(401).body("reason", equalTo("bad_signature"));
        String asCommand = Signed.v2(Signed.CONTROL_SECRET, "command", "POST", pause, Long.toString(now), nonce,
                new byte[0]);
        given().header("x-timestamp", Long.toString(now)).header("x-nonce", nonce)
                .header("x-signature", asCommand).post(pause).then().statusCode(200);
    }

    @Test
    void aV1CommandIsRefusedWhileV1IsNotAccepted() {
        String id = newId();
        Signed.commandV1(tenant().json()).put("/control/tenants/" + id)
                .then().statusCode(401).body("reason", equalTo("v1_refused"));
        Signed.command("").get("/control/tenants/" + id).then().statusCode(404);
    }
}
