package io.webhookbuffer.egress;

import static io.webhookbuffer.testsupport.TestTenants.tenant;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import io.webhookbuffer.controlplane.ControlPlaneClient;
import io.webhookbuffer.tenant.TenantInvalidation;
import io.webhookbuffer.testsupport.CapturedLog;
import io.webhookbuffer.testsupport.Db;
import io.webhookbuffer.testsupport.Events;
import io.webhookbuffer.testsupport.FakeOrigin;
import io.webhookbuffer.testsupport.FakeOrigin.Answer;
import io.webhookbuffer.testsupport.InjectFakeOrigin;
import io.webhookbuffer.testsupport.Signed;

/**
 * Where batches may go, against real servers: the fake origin (the global origin, 127.0.0.1), an origin listening at
 * a refused address (127.0.0.2), real names resolved by the buffer's own resolver (the fixtures' hosts file), and a
 * redirector. Each test names what it proves; each fails on the code before the origin trust rules.
 */
@QuarkusTest
@TestProfile(OriginTrustProfile.class)
class OriginTrustTests {

    private static final Duration PATIENCE = Duration.ofSeconds(20);
    private static final long HUGE = 64L * 1024 * 1024;

    @InjectFakeOrigin
    FakeOrigin origin;

    @InjectEgressFixtures
    EgressFixtures fixtures;

    @Inject
    Pool pool;

    @Inject
    RedisDataSource redis;

    @Inject
    ControlPlaneClient controlPlane;

    @Test
    void aCommandCannotPointATenantAtARefusedAddressOrAHostOutsideTheAllowList() {
        String t = tenant().provision();
        String allowed = "http://" + EgressFixtures.ALLOWED_NAME + ":" + origin.port();
        setOrigin(t, allowed).then().statusCode(200);
        Map<String, String> refused = Map.of(
                "http://169.254.169.254", "cloud metadata",
                "http://[::ffff:169.254.169.254]:8080", "cloud metadata",
                "http://10.0.0.5:8080", "private",
                "http://[fd00:ec2::254]", "unique local",
                "http://localhost:" + origin.port(), "loopback",
                "http://2130706433:" + origin.port(), "usual form",
                "http://evil.example.net", "buffer.origin.allowed-hosts",
                "http://allowed.test.evil.example.net", "buffer.origin.allowed-hosts");
        refused.forEach((url, why) -> setOrigin(t, url).then().statusCode(400)
                .contentType("application/problem+json")
                .body("reason", equalTo("origin_not_allowed"))
                .body("detail", containsString(why)));
        setOrigin(t, "http://user:password@" + EgressFixtures.ALLOWED_NAME).then().statusCode(400)
                .body("reason", equalTo("invalid_request"));
        Signed.command("").get("/control/tenants/" + t).then().statusCode(200).body("originUrl", equalTo(allowed));
        // The global origin's host is always allowed.
        setOrigin(t, "http://127.0.0.1:" + origin.port()).then().statusCode(200);
    }

    @Test
    void aNameThatResolvesToARefusedAddressIsNeverConnectedToAndNothingIsDeadLettered() {
        String t = tenant().provision();
        // Allowed by name (*.allowed.test); its address, 127.0.0.2, is checked when connecting.
        setOrigin(t, "http://" + EgressFixtures.PRIVATE_NAME + ":" + fixtures.privateOrigin().port()).then()
                .statusCode(200);
        Events.accept(t, "refused-1");
        await().atMost(PATIENCE).until(() -> lastError(t).contains("127.0.0.2 (loopback)"));
        assertTrue(lastError(t).contains("not connected"), lastError(t));
        setOrigin(t, "http://" + EgressFixtures.METADATA_NAME + ":80").then().statusCode(200);
        await().atMost(PATIENCE).until(() -> lastError(t).contains("cloud metadata"));

        assertEquals(0, fixtures.privateOrigin().requests(), "nothing reached the origin at the refused address");
        assertTrue(deadLetters(t).isEmpty(), "a refused address is the origin unavailable, never the event's fault");
        assertEquals(1, Db.queued(pool, t));

        // The same origin under a name that resolves to an allowed address: delivered, with that name as Host.
        setOrigin(t, "http://" + EgressFixtures.ALLOWED_NAME + ":" + origin.port()).then().statusCode(200);
        await().atMost(PATIENCE).until(() -> Db.queued(pool, t) == 0);
        assertEquals(List.of(EgressFixtures.ALLOWED_NAME + ":" + origin.port()),
                origin.batches(t).get(0).headers().get("Host"));
    }

    @Test
    void aStoredOriginThatIsNoLongerAllowedIsHeldNotSentNotCountedAndWarnedOnce() throws Exception {
        String t = tenant().provision();
        // A row stored before the allow-list (or by another replica's older build): written as another replica would.
        pool.preparedQuery("UPDATE tenants SET origin_url = $2, updated_at = now() WHERE tenant_id = $1")
                .execute(Tuple.of(t, "http://held.example.net:" + origin.port())).await().indefinitely();
        redis.pubsub(String.class).publish(TenantInvalidation.CHANNEL, t);
        try (CapturedLog log = CapturedLog.start(Level.WARNING)) {
            Events.accept(t, "held-1");
            Events.accept(t, "held-2");
            await().atMost(PATIENCE).until(() -> "held".equals(backlogState(t)));
            // Several hold periods (the backoff cap is 400 ms here): held all along, nothing tried, nothing counted.
            await().during(Duration.ofMillis(1500)).atMost(PATIENCE).until(() -> "held".equals(backlogState(t))
                    && Db.queueRows(pool, t).stream().allMatch(r -> r.getInteger("attempts") == 0));
            assertEquals(2, Db.queueRows(pool, t).size());
            assertTrue(deadLetters(t).isEmpty());
            assertTrue(origin.batches(t).isEmpty());
            long warnings = log.errors().stream().filter(line -> line.contains("tenant " + t + ": batches held"))
                    .count();
            assertEquals(1, warnings, "one WARN per tenant, not one per look: " + log.errors());
        }
        setOrigin(t, null).then().statusCode(200);
        await().atMost(PATIENCE).until(() -> Db.queued(pool, t) == 0);
        assertEquals(List.of("held-1", "held-2"), origin.providerIds(t));
    }

    @Test
    void anEventHeldLongerThanMaxAgeIsNotDeadLetteredOnItsFirstFailureOnceTheHoldEnds() {
        String t = tenant().provision();
        pool.preparedQuery("UPDATE tenants SET origin_url = $2, updated_at = now() WHERE tenant_id = $1")
                .execute(Tuple.of(t, "http://held.example.net:" + origin.port())).await().indefinitely();
        redis.pubsub(String.class).publish(TenantInvalidation.CHANNEL, t);
        origin.answer(t, batch -> Answer.status(503));
        Events.accept(t, "held-long");
        await().atMost(PATIENCE).until(() -> "held".equals(backlogState(t)));
        // Held for longer than max-age (72 h): its receipt moved back 100 h, as such a hold would leave it.
        pool.preparedQuery("UPDATE event_queue SET received_at = now() - interval '100 hours' WHERE tenant_id = $1")
                .execute(Tuple.of(t)).await().indefinitely();

        setOrigin(t, null).then().statusCode(200);
        await().atMost(PATIENCE).until(() -> !deadLetters(t).isEmpty()
                || Db.queueRows(pool, t).stream().anyMatch(r -> r.getInteger("attempts") >= 1));
        assertTrue(deadLetters(t).isEmpty(), "the hold does not count against max-age");
        origin.answer(t, batch -> Answer.ok());
        await().atMost(PATIENCE).until(() -> Db.queued(pool, t) == 0);
        assertEquals(List.of("held-long"), origin.providerIds(t).stream().distinct().toList());
    }

    @Test
    void aHugeAnswerIsCutAtTheCapNotReadToTheEnd() {
        String t = tenant().provision();
        origin.answer(t, batch -> origin.batches(t).size() == 1 ? Answer.streamed(500, HUGE) : Answer.streamed(200, HUGE));
        Events.accept(t, "huge-1");
        await().atMost(PATIENCE).until(() -> Db.queued(pool, t) == 0);
        assertTrue(deadLetters(t).isEmpty(), "a cut 2xx is judged by its status: delivered");
        List<FakeOrigin.Streamed> written = origin.streamed();
        assertTrue(written.size() >= 2, written.toString());
        for (FakeOrigin.Streamed answer : written) {
            assertTrue(answer.failed() && answer.written() < answer.bytes(),
                    "the buffer closed the connection instead of reading " + HUGE + " bytes: " + answer);
        }
    }

    @Test
    void controlCharactersAndBidiControlsNeverReachStoredErrors() {
        String t = tenant().provision();
        String hostile = "refused \u001b[31mred\u001b[0m\r\nX-Forged: line\u202eevil\u2066\u0007\u0000";
        origin.answer(t, batch -> new Answer(400, Map.of(), hostile, 0));
        Events.accept(t, "ctl-1");
        await().atMost(PATIENCE).until(() -> deadLetters(t).size() == 1);
        String stored = deadLetters(t).get(0).getString("last_error");
        assertClean(stored);
        assertTrue(stored.contains("refused [31mred[0m X-Forged: lineevil"), stored);

        String u = tenant().provision();
        origin.answer(u, batch -> new Answer(200, Map.of(), "{\"rejected\":[{\"eventId\":\""
                + batch.events().get(0).get("eventId").asText() + "\",\"reason\":\"no\\u001b]0;title\\u0007"
                + "y".repeat(500) + "\"}]}", 0));
        Events.accept(u, "ctl-2");
        await().atMost(PATIENCE).until(() -> deadLetters(u).size() == 1);
        String reason = deadLetters(u).get(0).getString("last_error");
        assertClean(reason);
        assertTrue(reason.length() <= "rejected by origin: ".length() + 200 + 3, reason.length() + ": " + reason);
    }

    @Test
    void theOriginPullFollowsNoRedirectAndReadsACappedAnswer() {
        String redirected = tenant().id();
        origin.answerConfig(redirected, new Answer(302, Map.of("Location",
                fixtures.recorder().baseUrl() + "/internal/tenants/" + redirected + "/webhook-config"), "", 0));
        Events.post(redirected, "pull-1").then().statusCode(503);
        assertTrue(fixtures.recorder().requests().stream().noneMatch(r -> r.contains("/internal/tenants/")),
                "the question (and the origin token) went nowhere else: " + fixtures.recorder().requests());

        String huge = tenant().id();
        origin.answerConfig(huge, Answer.streamed(200, HUGE));
        int before = origin.streamed().size();
        Events.post(huge, "pull-2").then().statusCode(503);
        await().atMost(PATIENCE).until(() -> origin.streamed().size() > before);
        FakeOrigin.Streamed answer = origin.streamed().get(before);
        assertTrue(answer.failed() && answer.written() < answer.bytes(), answer.toString());
    }

    @Test
    void aControlPlanePushFollowsNoRedirect() {
        int status = controlPlane.post("/usage", "{\"usage\":[]}".getBytes()).await().atMost(PATIENCE);
        assertEquals(303, status, "a redirect is an answer that is not 2xx: the push is retried, not re-sent elsewhere");
        assertTrue(fixtures.recorder().requests().stream().noneMatch(r -> r.contains("/elsewhere")),
                "nothing sent to the Location: " + fixtures.recorder().requests());
        assertFalse(fixtures.redirector().requests().isEmpty());
    }

    private static Response setOrigin(String tenantId, String url) {
        return Signed.command("{\"originUrl\":" + (url == null ? "null" : "\"" + url + "\"") + "}")
                .put("/control/tenants/" + tenantId);
    }

    private static String backlogState(String tenantId) {
        return Signed.command("").get("/control/tenants/" + tenantId + "/backlog").then().statusCode(200)
                .extract().path("state");
    }

    private String lastError(String tenantId) {
        return Db.queueRows(pool, tenantId).stream().map(r -> r.getString("last_error"))
                .filter(e -> e != null).findFirst().orElse("");
    }

    private List<Row> deadLetters(String tenantId) {
        List<Row> rows = new ArrayList<>();
        pool.preparedQuery("SELECT * FROM dead_letters WHERE tenant_id = $1 ORDER BY id").execute(Tuple.of(tenantId))
                .await().indefinitely().forEach(rows::add);
        return rows;
    }

    private static void assertClean(String stored) {
        for (char c : stored.toCharArray()) {
            assertFalse(c < 0x20 || (c >= 0x7f && c <= 0x9f) || (c >= '\u202a' && c <= '\u202e')
                    || (c >= '\u2066' && c <= '\u2069'), "control or bidi character U+" + Integer.toHexString(c)
                            + " in " + stored);
        }
    }
}
