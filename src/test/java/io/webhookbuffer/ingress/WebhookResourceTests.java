package io.webhookbuffer.ingress;

import static io.restassured.RestAssured.given;
import static io.webhookbuffer.testsupport.TestTenants.tenant;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Pool;
import io.webhookbuffer.common.Hex;
import io.webhookbuffer.common.Hmac;
import io.webhookbuffer.testsupport.Db;
import io.webhookbuffer.testsupport.Signed;
import io.webhookbuffer.testsupport.TestTenants;

/** The ingest contract against the real app, PostgreSQL and Redis. */
@QuarkusTest
class WebhookResourceTests {

    @Inject
    Pool pool;

    @Test
    void validEventIsBufferedAndReadableByAnotherConnectionAtOnce() {
        String t = tenant().provision();
        Signed.webhook(TestTenants.DEFAULT_SECRET, "{\"n\":1}").header("X-Event-ID", "evt-1")
                .when().post("/webhook/" + t)
                .then().statusCode(202).body("status", equalTo("buffered")).body("eventId", equalTo("evt-1"));
        // No await: a 202 means committed, so a separate connection must see the row right away.
        assertEquals(1, Db.queued(pool, t));
        assertEquals(1, Db.dedupeRows(pool, t));
    }
}
