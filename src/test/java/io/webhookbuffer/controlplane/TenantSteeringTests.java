package io.webhookbuffer.controlplane;

import static io.webhookbuffer.testsupport.TestTenants.tenant;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.containsString;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.webhookbuffer.common.Hmac;
import io.webhookbuffer.testsupport.Signed;
import io.webhookbuffer.testsupport.TestTenants;

/** Pause/resume, deactivation, secret rotation and replay answers, as signed commands against the real app. */
@QuarkusTest
class TenantSteeringTests {

    @Test
    void stateChangingCommandsAnswerReplayWhenTheStateWasAlreadySo() {
        String id = tenant().secrets("steer-secret").provision();
        Signed.command("{\"rateLimit\":77}").put("/control/tenants/" + id).then().statusCode(200)
                .body("rateLimit", equalTo(77)).body("replay", equalTo(false));
        String updatedAt = Signed.command("").get("/control/tenants/" + id).then().extract().path("updatedAt");
        Signed.command("{\"rateLimit\":77}").put("/control/tenants/" + id).then().statusCode(200)
                .body("rateLimit", equalTo(77)).body("replay", equalTo(true)).body("updatedAt", equalTo(updatedAt));

        Signed.command("{}").post("/control/tenants/" + id + "/pause").then().statusCode(200)
                .body("paused", equalTo(true)).body("replay", equalTo(false));
        Signed.command("").post("/control/tenants/" + id + "/pause").then().statusCode(200)
                .body("paused", equalTo(true)).body("replay", equalTo(true));
        Signed.command("").post("/control/tenants/" + id + "/resume").then().statusCode(200)
                .body("paused", equalTo(false)).body("replay", equalTo(false));
        Signed.command("").post("/control/tenants/" + id + "/resume").then().statusCode(200)
                .body("paused", equalTo(false)).body("replay", equalTo(true));

        Signed.command("{\"active\":false}").put("/control/tenants/" + id).then().statusCode(200)
                .body("active", equalTo(false)).body("replay", equalTo(false));
        Signed.command("{\"active\":false}").put("/control/tenants/" + id).then().statusCode(200)
                .body("active", equalTo(false)).body("replay", equalTo(true));
    }

    @Test
    void steeringAnUnknownTenantOrWithFieldsIsRefused() {
        Signed.command("").post("/control/tenants/no-such-tenant-steer/pause").then().statusCode(404)
                .body("reason", equalTo("not_found"));
        String id = tenant().provision();
        Signed.command("{\"until\":1}").post("/control/tenants/" + id + "/pause").then().statusCode(400)
                .body("reason", equalTo("invalid_request"));
        Signed.command("").get("/control/tenants/" + id).then().body("paused", equalTo(false));
    }

    @Test
    void pauseIsRefusedUnsigned() {
        String id = tenant().provision();
        RestAssured.given().post("/control/tenants/" + id + "/pause").then().statusCode(401)
                .body("reason", equalTo("missing_headers"));
        Signed.command("", System.currentTimeMillis() / 1000, Signed.nonce(), "wrong-control-secret")
                .post("/control/tenants/" + id + "/pause").then().statusCode(401).body("reason", equalTo("bad_signature"));
        Signed.command("").get("/control/tenants/" + id).then().body("paused", equalTo(false));
    }

    @Test
    void aPausedTenantStillBuffersAndTheBacklogSaysPaused() {
        String id = tenant().provision();
        Signed.command("").post("/control/tenants/" + id + "/pause").then().statusCode(200);
        Signed.webhook(TestTenants.DEFAULT_SECRET, "{\"n\":1}").post("/webhook/" + id)
                .then().statusCode(202);
        Signed.command("").get("/control/tenants/" + id + "/backlog").then().statusCode(200)
                .body("depth", equalTo(1)).body("state", equalTo("paused")).body("paused", equalTo(true))
                .body("leaseHolder", equalTo(null));
    }

    @Test
    void rotationAddsTheNewSecretFirstAndRetiresTheOldByFingerprint() {
        String id = tenant().secrets("rotate-old-0001").provision();
        Signed.command("{\"add\":\"rotate-new-0002\"}").post("/control/tenants/" + id + "/secrets").then()
                .statusCode(200).body("replay", equalTo(false))
                .body("secretFingerprints", contains(Hmac.fingerprint("rotate-new-0002"), Hmac.fingerprint("rotate-old-0001")))
                .body(not(containsString("rotate-new-0002")));
        Signed.command("{\"add\":\"rotate-new-0002\"}").post("/control/tenants/" + id + "/secrets").then()
                .statusCode(200).body("replay", equalTo(true)).body("secretCount", equalTo(2));
        String old = Hmac.fingerprint("rotate-old-0001");
        Signed.command("{\"retire\":\"" + old + "\"}").post("/control/tenants/" + id + "/secrets").then()
                .statusCode(200).body("replay", equalTo(false))
                .body("secretFingerprints", contains(Hmac.fingerprint("rotate-new-0002")));
        Signed.command("{\"retire\":\"" + old + "\"}").post("/control/tenants/" + id + "/secrets").then()
                .statusCode(200).body("replay", equalTo(true));
        Signed.command("{\"retire\":\"" + Hmac.fingerprint("rotate-new-0002") + "\"}")
                .post("/control/tenants/" + id + "/secrets").then().statusCode(409).body("reason", equalTo("conflict"));
        Signed.command("{\"add\":\"x\",\"retire\":\"" + old + "\"}").post("/control/tenants/" + id + "/secrets")
                .then().statusCode(400);
        Signed.webhook("rotate-old-0001", "{}").post("/webhook/" + id).then().statusCode(401);
        Signed.webhook("rotate-new-0002", "{}").post("/webhook/" + id).then().statusCode(202);
    }

    /**
     * A sender streams events while the control plane adds a new secret, the sender switches to it, and the old one
     * is retired: not a single 401 along the way.
     */
    @Test
    void aSenderSwitchingSecretsMidStreamNeverSeesA401() throws Exception {
        String id = tenant().secrets("stream-old-secret").provision();
        AtomicBoolean useNew = new AtomicBoolean();
        AtomicBoolean stop = new AtomicBoolean();
        List<Integer> statuses = Collections.synchronizedList(new ArrayList<>());
        CompletableFuture<Void> sender = CompletableFuture.runAsync(() -> {
            for (int i = 0; !stop.get() || i < 20; i++) {
                String secret = useNew.get() ? "stream-new-secret" : "stream-old-secret";
                statuses.add(Signed.webhook(secret, "{\"seq\":" + i + "}").post("/webhook/" + id).statusCode());
            }
        });
        Awaitility.await().until(() -> statuses.size() >= 10);
        Signed.command("{\"add\":\"stream-new-secret\"}").post("/control/tenants/" + id + "/secrets").then()
                .statusCode(200);
        int before = statuses.size();
        useNew.set(true);
        Awaitility.await().until(() -> statuses.size() >= before + 10);
        Signed.command("{\"retire\":\"" + Hmac.fingerprint("stream-old-secret") + "\"}")
                .post("/control/tenants/" + id + "/secrets").then().statusCode(200);
        int after = statuses.size();
        Awaitility.await().until(() -> statuses.size() >= after + 10);
        stop.set(true);
        sender.get();
        List<Integer> copy = new ArrayList<>(statuses);
        assertNotEquals(0, copy.size());
        assertEquals(List.of(), copy.stream().filter(s -> s != 202).toList(), "every event accepted");
    }
}
