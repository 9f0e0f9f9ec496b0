package io.webhookbuffer.delivery;

import static io.webhookbuffer.testsupport.TestTenants.tenant;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.vertx.mutiny.sqlclient.Pool;
import io.webhookbuffer.testsupport.Db;
import io.webhookbuffer.testsupport.Events;
import io.webhookbuffer.testsupport.FakeOrigin;
import io.webhookbuffer.testsupport.InjectFakeOrigin;
import io.webhookbuffer.testsupport.Signed;
import io.webhookbuffer.testsupport.TestTenants;

/** Pause holds delivery (ingest keeps buffering); deactivation stops ingest while queued events still drain. */
@QuarkusTest
@TestProfile(DeliveryProfile.class)
class PauseAndDeactivateTests {

    private static final Duration PATIENCE = Duration.ofSeconds(20);

    @InjectFakeOrigin
    FakeOrigin origin;

    @Inject
    Pool pool;

    @Test
    void pausedTenantBuffersButSendsNothingUntilResumed() {
        String t = tenant().provision();
        Signed.command("").post("/control/tenants/" + t + "/pause").then().statusCode(200);
        List<String> ids = IntStream.range(0, 5).mapToObj(i -> "paused-" + i).toList();
        ids.forEach(id -> Events.accept(t, id));
        // Several sweeps (500 ms) pass: none may send a paused tenant's events.
        await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(5))
                .until(() -> origin.providerIds(t).isEmpty() && Db.queued(pool, t) == 5);
        Signed.command("").get("/control/tenants/" + t + "/backlog").then().body("state", equalTo("paused"))
                .body("depth", equalTo(5));
        Signed.command("").post("/control/tenants/" + t + "/resume").then().statusCode(200);
        await().atMost(PATIENCE).until(() -> origin.providerIds(t).size() == 5);
        assertEquals(ids, origin.providerIds(t));
        await().atMost(PATIENCE).until(() -> Db.queued(pool, t) == 0);
        Signed.command("").get("/control/tenants/" + t + "/backlog").then().body("state", equalTo("empty"));
    }

    @Test
    void deactivatedTenantAnswers404ButItsQueuedEventsStillDrain() {
        String t = tenant().provision();
        Signed.command("").post("/control/tenants/" + t + "/pause").then().statusCode(200);
        Events.accept(t, "before-deactivation");
        Signed.command("{\"active\":false}").put("/control/tenants/" + t).then().statusCode(200);
        Signed.webhook(TestTenants.DEFAULT_SECRET, "{\"id\":\"after\"}").header("X-Event-ID", "after")
                .post("/webhook/" + t).then().statusCode(404);
        Signed.command("").post("/control/tenants/" + t + "/resume").then().statusCode(200);
        await().atMost(PATIENCE).until(() -> origin.providerIds(t).equals(List.of("before-deactivation")));
        await().atMost(PATIENCE).until(() -> Db.queued(pool, t) == 0);
    }
}
