package io.webhookbuffer.bench;

import static io.restassured.RestAssured.given;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;

/**
 * The HTTP-ceiling endpoint is off unless {@code buffer.bench.ceiling-endpoint} is set: a service that was not
 * started for a benchmark answers it like any unknown path. (BenchSmokeIT runs it switched on.)
 */
@QuarkusTest
class CeilingResourceTests {

    @Test
    void theCeilingEndpointIsOffByDefault() {
        given().body("{}").contentType("application/json").post("/bench/ceiling").then().statusCode(404);
    }
}
