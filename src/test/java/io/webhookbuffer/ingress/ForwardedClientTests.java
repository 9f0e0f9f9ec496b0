package io.webhookbuffer.ingress;

import static io.restassured.RestAssured.given;
import static io.webhookbuffer.testsupport.TestTenants.tenant;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.time.Duration;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import io.webhookbuffer.testsupport.RawHttp;

/**
 * Behind a proxy, as the Kubernetes manifests configure it: the failed-verification budget counts the client the
 * trusted proxy names in {@code X-Forwarded-For}, on the webhook port (ingress.EdgePort hands requests to Quarkus's
 * root handler, which applies {@code quarkus.http.proxy.*}). Without those settings every sender behind the ingress
 * controller shares its private address, which the budget does not count: no sender would ever be held back.
 */
@QuarkusTest
@TestProfile(ForwardedClientProfile.class)
class ForwardedClientTests {

    private static final String BAD = "00".repeat(32);

    @Test
    void theBudgetCountsTheClientTheProxyNamesAndNotTheProxy() {
        String tenant = tenant().provision();
        for (int i = 0; i < ForwardedClientProfile.PER_ADDRESS; i++) {
            badSignature(tenant, "203.0.113.7").then().statusCode(401);
        }
        badSignature(tenant, "203.0.113.7").then().statusCode(429).body("reason", equalTo("failed_verifications"));
        // Another client behind the same proxy has its own standing...
        badSignature(tenant, "203.0.113.8").then().statusCode(401);
        // ... and so has the proxy itself (a private peer, not counted), however many of its own requests fail.
        for (int i = 0; i <= ForwardedClientProfile.PER_ADDRESS; i++) {
            given().header("X-Signature", BAD).body("{}").post("/webhook/" + tenant).then().statusCode(401);
        }
    }

    @Test
    void aClientNamedWithAPrivateAddressIsNotCounted() {
        String tenant = tenant().provision();
        for (int i = 0; i <= ForwardedClientProfile.PER_ADDRESS; i++) {
            badSignature(tenant, "10.20.30.40").then().statusCode(401);
        }
    }

    @Test
    void theWebhookPortTakesTheForwardedClientToo() throws IOException {
        String tenant = tenant().provision();
        String head = "POST /webhook/" + tenant + " HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Forwarded-For: 198.51.100.4\r\n"
                + "X-Signature: " + BAD + "\r\nContent-Length: 2\r\n\r\n{}";
        for (int i = 0; i < ForwardedClientProfile.PER_ADDRESS; i++) {
            try (RawHttp http = RawHttp.open()) {
                http.send(head);
                assertEquals(401, http.answer(Duration.ofSeconds(10)).status());
            }
        }
        try (RawHttp http = RawHttp.open()) {
            http.send(head);
            assertEquals(429, http.answer(Duration.ofSeconds(10)).status());
        }
    }

    private static Response badSignature(String tenant, String client) {
        return given().header("X-Signature", BAD).header("X-Forwarded-For", client).body("{}")
                .post("/webhook/" + tenant);
    }
}
