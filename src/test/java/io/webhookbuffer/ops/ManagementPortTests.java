package io.webhookbuffer.ops;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import io.webhookbuffer.controlplane.ControlPlaneProfile;
import io.webhookbuffer.testsupport.Signed;
import io.webhookbuffer.testsupport.TestTenants;

/**
 * buffer.management.port set (as in k8s/ and compose): /q/*, /control and /status are answered on the management
 * port only, the webhook port answers 404 for them however the path is spelled, and /webhook is answered on the
 * webhook port only. A signed command with a body works on the management port (the same RESTEasy resources).
 * Which paths are management paths, and the setting's bounds: ManagementPathsTests.
 */
@QuarkusTest
@TestProfile(ManagementPortProfile.class)
class ManagementPortTests {

    private static final List<String> MANAGEMENT_PATHS = List.of("/q/health/ready", "/q/health/live", "/q/metrics",
            "/q/openapi", "/status", "/control/tenants/some-tenant", "/control/tenants/some-tenant/backlog");

    @Inject
    ManagementPort management;

    @Test
    void managementPathsAreAnsweredOnTheManagementPortOnly() {
        int port = management.port();
        assertTrue(port > 0, "the management port listens: " + port);
        assertNotEquals(RestAssured.port, port, "a port of its own");
        for (String path : MANAGEMENT_PATHS) {
            given().get(path).then().statusCode(404);
        }
        given().port(port).get("/q/health/ready").then().statusCode(200);
        given().port(port).get("/q/health/live").then().statusCode(200);
        given().port(port).accept("text/plain").get("/q/metrics").then().statusCode(200)
                .body(containsString("buffer_"));
        given().port(port).get("/q/openapi").then().statusCode(200);
        given().port(port).header("Authorization", "Bearer " + ControlPlaneProfile.STATUS_TOKEN).get("/status").then()
                .statusCode(200);
    }

    @Test
    void commandsWithBodiesWorkOnTheManagementPortAndWebhooksOnTheWebhookPort() {
        int port = management.port();
        TestTenants tenant = TestTenants.tenant();
        Signed.command(tenant.json()).put("/control/tenants/" + tenant.id()).then().statusCode(404);
        Signed.command(tenant.json()).port(port).put("/control/tenants/" + tenant.id()).then().statusCode(200)
                .body(containsString(tenant.id()));
        Signed.command("").port(port).get("/control/tenants/" + tenant.id()).then().statusCode(200);

        Signed.webhook(TestTenants.DEFAULT_SECRET, "{\"id\":\"split-1\"}").port(port)
                .post("/webhook/" + tenant.id()).then().statusCode(404);
        Signed.webhook(TestTenants.DEFAULT_SECRET, "{\"id\":\"split-1\"}").post("/webhook/" + tenant.id()).then()
                .statusCode(202);
        given().port(port).get("/").then().statusCode(404);
    }

    @Test
    void noSpellingOfAManagementPathGetsThroughTheWebhookPort() {
        // Each of these reaches a management resource where paths are not split (the management port shows it).
        for (String path : List.of("//q/health/ready", "/%71/metrics", "/%63ontrol/tenants/x", "/status;a=b",
                "/status/")) {
            given().urlEncodingEnabled(false).get(path).then().statusCode(404);
            int there = given().urlEncodingEnabled(false).port(management.port()).get(path).statusCode();
            assertTrue(there == 200 || there == 401, path + " on the management port: " + there);
        }
        // Dot segments reach nothing on either port: the ingest gate refuses them (400 invalid_path) where the split
        // lets a management path through.
        for (String path : List.of("/./q/metrics", "/webhook/../q/metrics")) {
            given().urlEncodingEnabled(false).get(path).then().statusCode(404);
            given().urlEncodingEnabled(false).port(management.port()).get(path).then().statusCode(400);
        }
        for (String path : List.of("/q;x=1/health/ready", "/status/sign-in", "/q", "/control")) {
            given().urlEncodingEnabled(false).get(path).then().statusCode(404);
        }
        given().contentType("application/x-www-form-urlencoded").formParam("token", ControlPlaneProfile.STATUS_TOKEN)
                .post("/status/sign-in").then().statusCode(404);
    }
}
