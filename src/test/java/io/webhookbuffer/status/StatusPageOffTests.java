package io.webhookbuffer.status;

import static io.restassured.RestAssured.given;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;

/** Without buffer.status.token the page does not exist: 404, whatever is sent. */
@QuarkusTest
class StatusPageOffTests {

    @Test
    void noTokenConfiguredMeansNoPage() {
        given().get("/status").then().statusCode(404);
        given().header("Authorization", "Bearer anything").get("/status").then().statusCode(404);
        given().redirects().follow(false).queryParam("token", "anything").get("/status").then().statusCode(404);
        given().contentType("application/x-www-form-urlencoded").formParam("token", "anything")
                .post("/status/sign-in").then().statusCode(404);
    }
}
