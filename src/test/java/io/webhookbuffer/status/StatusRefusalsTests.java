package io.webhookbuffer.status;

import static io.webhookbuffer.testsupport.TestTenants.tenant;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;

/** The status page lists this replica's latest refusals: tenant, status and why, header names, never a value. */
@QuarkusTest
class StatusRefusalsTests {

    @Inject
    StatusResource status;

    @Test
    void aRefusedWebhookIsOnThePage() {
        String t = tenant().provision();
        RestAssured.given().header("X-Signature", "feedface".repeat(8)).contentType("application/json").body("{}")
                .post("/webhook/" + t).then().statusCode(401);
        String page = status.render(Instant.now());
        assertTrue(page.contains("id=\"refusals-table\""), page);
        int row = page.indexOf("data-tenant=\"" + t + "\"", page.indexOf("id=\"refusals-table\""));
        assertTrue(row > 0, "a row for the tenant");
        String rest = page.substring(row, page.indexOf("</tr>", row));
        assertTrue(rest.contains("invalid_signature: bad_signature") && rest.contains("x-signature")
                && rest.contains(">401<"), rest);
        assertFalse(page.contains("feedface"), "never a header value");
    }
}
