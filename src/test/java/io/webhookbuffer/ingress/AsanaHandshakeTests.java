package io.webhookbuffer.ingress;

import static io.restassured.RestAssured.given;
import static io.webhookbuffer.testsupport.TestTenants.tenant;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;

import javax.sql.DataSource;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import io.webhookbuffer.common.Hmac;
import io.webhookbuffer.secrets.SecretCipher;
import io.webhookbuffer.testsupport.CapturedLog;
import io.webhookbuffer.testsupport.Db;
import io.webhookbuffer.testsupport.PlaintextScan;
import io.webhookbuffer.testsupport.Signed;

/**
 * Asana's {@code X-Hook-Secret} handshake end to end, against the real endpoint, PostgreSQL and Redis: refused (403,
 * nothing stored) unless the operator opened a window with the signed command; inside one, the first secret is stored
 * sealed and committed, then echoed, and the window is closed; events signed with it are buffered from then on; the
 * window and its use are in the lifecycle outbox, the refusals in the tenant's refusals, the secret in no log and in no
 * table in clear.
 */
@QuarkusTest
class AsanaHandshakeTests {

    /** The shape of Asana's secrets (their docs' example): 64 hex digits. */
    private static final String SECRET = "b537207f20cbfa02357cf448134da559e8bd39d61597dcd5631b8012eae53e81";
    private static final String PLACEHOLDER = "asana-placeholder-until-the-handshake";
    private static final String EVENT = "{\"events\":[{\"action\":\"changed\",\"resource\":{\"gid\":\"4200\"}}]}";

    @Inject
    Pool pool;

    @Inject
    DataSource database;

    @Inject
    RefusalLog refusals;

    @Inject
    SecretCipher cipher;

    @Test
    void outsideAWindowTheHandshakeIsRefusedAndNothingIsStored() {
        String t = asanaTenant();
        Response refused = handshake(t, SECRET);
        refused.then().statusCode(403).header("X-Hook-Secret", nullValue())
                .body("status", equalTo("handshake_refused")).body("reason", equalTo("no_handshake_window"));
        assertFalse(refused.asString().contains(SECRET), "the secret is not echoed in a refusal");
        assertEquals(List.of(PLACEHOLDER), storedSecrets(t), "the tenant's secret is unchanged");
        RefusalLog.Refusal kept = refusals.local(t).get(0);
        assertEquals(403, kept.status());
        assertEquals("no_handshake_window", kept.reason());
        assertTrue(kept.signatureHeaders().stream().anyMatch("x-hook-secret"::equalsIgnoreCase),
                kept.signatureHeaders().toString());
        event(t, SECRET).then().statusCode(401);
        assertEquals(0, Db.queued(pool, t));
    }

    @Test
    void insideTheWindowTheFirstSecretIsCommittedThenEchoedAndTheWindowCloses() {
        String t = asanaTenant();
        try (CapturedLog log = CapturedLog.start(Level.ALL)) {
            open(t, "{}").then().statusCode(200).body("tenantId", equalTo(t)).body("provider", equalTo("asana"));
            Response accepted = handshake(t, SECRET);
            accepted.then().statusCode(200).header("X-Hook-Secret", SECRET).body("status", equalTo("handshake_accepted"));
            // The answer came after the commit: the row holds the secret, sealed, and the window is gone.
            assertEquals(List.of(SECRET), storedSecrets(t));
            assertFalse(rawSecrets(t).contains(SECRET), "sealed, never in clear");
            assertEquals(List.of(), PlaintextScan.find(database, List.of(SECRET)),
                    "columns holding the handshake's secret in clear (or hex/base64 of it), the whole schema");
            assertEquals(0, count("SELECT count(*) FROM handshake_windows WHERE tenant_id = $1", t));

            event(t, SECRET).then().statusCode(202).body("status", equalTo("buffered"));
            event(t, PLACEHOLDER).then().statusCode(401);
            assertEquals(1, Db.queued(pool, t));

            // A second handshake (another webhook, or someone else) finds no window: the secret stays.
            handshake(t, "c".repeat(64)).then().statusCode(403).body("reason", equalTo("no_handshake_window"));
            assertEquals(List.of(SECRET), storedSecrets(t));
            for (String line : log.errors()) {
                assertFalse(line.contains(SECRET), "the secret was logged: " + line);
            }
        }
        assertEquals(1, count("SELECT count(*) FROM lifecycle_events WHERE tenant_id = $1 AND type = "
                + "'handshake_window_opened'", t));
        Row used = pool.preparedQuery("SELECT data->>'secretFingerprint' AS f FROM lifecycle_events WHERE tenant_id = $1"
                + " AND type = 'handshake_secret_stored'").execute(Tuple.of(t)).await().indefinitely().iterator().next();
        assertEquals(Hmac.fingerprint(SECRET), used.getString("f"));
    }

    /** The window is a row in PostgreSQL: one that another replica's command opened is honoured here; one past its end is not. */
    @Test
    void theWindowLivesInTheDatabaseAndEnds() {
        String other = asanaTenant();
        pool.preparedQuery("INSERT INTO handshake_windows (tenant_id, provider, opened_at, closes_at) "
                + "VALUES ($1, 'asana', now(), now() + interval '1 minute')").execute(Tuple.of(other)).await().indefinitely();
        // A secret of the other shape receivers report (60 characters with '$', '.' and '/'), echoed exactly.
        String bcryptShaped = "$2a$12$Zt9GSEggG5RluXMGV1lkaeLaTqkzyl72tSftDDXNvlYJFr2TrdZ7O";
        handshake(other, bcryptShaped).then().statusCode(200).header("X-Hook-Secret", bcryptShaped);
        assertEquals(List.of(bcryptShaped), storedSecrets(other));

        String expired = asanaTenant();
        pool.preparedQuery("INSERT INTO handshake_windows (tenant_id, provider, opened_at, closes_at) "
                + "VALUES ($1, 'asana', now() - interval '11 minutes', now() - interval '1 minute')")
                .execute(Tuple.of(expired)).await().indefinitely();
        handshake(expired, SECRET).then().statusCode(403);
        assertEquals(List.of(PLACEHOLDER), storedSecrets(expired));
    }

    /**
     * Handshakes racing in one window: exactly one is stored and echoed, and it is the one the row holds; the others are
     * refused (at most one per tenant at the database at a time).
     */
    @Test
    void ofConcurrentHandshakesExactlyOneWins() throws Exception {
        String t = asanaTenant();
        open(t, "{}").then().statusCode(200);
        ExecutorService senders = Executors.newFixedThreadPool(4);
        try {
            List<Future<Response>> sent = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                String secret = Integer.toString(i).repeat(64);
                sent.add(senders.submit(() -> handshake(t, secret)));
            }
            List<String> echoed = new ArrayList<>();
            for (Future<Response> f : sent) {
                Response r = f.get(30, TimeUnit.SECONDS);
                if (r.statusCode() == 200) {
                    echoed.add(r.header("X-Hook-Secret"));
                } else {
                    // 403 once the window is used; 429 handshake_rate while another is at the database (one at a time)
                    assertTrue(r.statusCode() == 403 || r.statusCode() == 429, r.statusCode() + " " + r.asString());
                }
            }
            assertEquals(1, echoed.size(), echoed.toString());
            assertEquals(echoed, storedSecrets(t));
        } finally {
            senders.shutdownNow();
        }
    }

    @Test
    void aMalformedSecretIsA400() {
        String t = asanaTenant();
        open(t, "{\"seconds\": 60}").then().statusCode(200);
        handshake(t, "short").then().statusCode(400).body("reason", equalTo("malformed_handshake"));
        handshake(t, "x".repeat(257)).then().statusCode(400);
        assertEquals(1, count("SELECT count(*) FROM handshake_windows WHERE tenant_id = $1", t), "still open");
    }

    /**
     * Anyone who knows a tenant's URL can send handshakes: forged ones before the window (one every 6 s, or a flood)
     * must not use up the genuine handshake the operator opens the window for, for that tenant or another. (Before:
     * 10 attempts per tenant and minute reached the database, then 429 {@code handshake_rate}, forged or not.)
     */
    @Test
    void forgedHandshakesBeforeTheWindowNeverRefuseTheGenuineOne() {
        String t = asanaTenant();
        String other = asanaTenant();
        for (int i = 0; i < 30; i++) {
            handshake(t, "f".repeat(64));
            handshake(other, "f".repeat(64));
        }
        handshake(t, "f".repeat(64)).then().statusCode(403).body("reason", equalTo("no_handshake_window"));
        open(t, "{\"seconds\": 60}").then().statusCode(200);
        open(other, "{\"seconds\": 60}").then().statusCode(200);
        handshake(t, SECRET).then().statusCode(200).header("X-Hook-Secret", SECRET);
        handshake(other, SECRET).then().statusCode(200).header("X-Hook-Secret", SECRET);
        assertEquals(List.of(SECRET), storedSecrets(t));
    }

    @Test
    void theCommandIsForAnAsanaTenantOnly() {
        open("no-such-" + System.nanoTime(), "{}").then().statusCode(404);
        String github = tenant().provider("github").provision();
        open(github, "{}").then().statusCode(409);
        assertEquals(0, count("SELECT count(*) FROM handshake_windows WHERE tenant_id = $1", github));
        String t = asanaTenant();
        Signed.command("{}").when().post("/control/tenants/" + t + "/handshake/github").then().statusCode(400);
        open(t, "{\"seconds\": 0}").then().statusCode(400);
        open(t, "{\"seconds\": 3601}").then().statusCode(400);
        open(t, "{\"minutes\": 5}").then().statusCode(400);
        given().contentType("application/json").body("{}").post("/control/tenants/" + t + "/handshake/asana")
                .then().statusCode(401);
        // A github tenant's requests with X-Hook-Secret are events like any other: verified, refused unsigned.
        given().header("X-Hook-Secret", SECRET).post("/webhook/" + github).then().statusCode(401)
                .header("X-Hook-Secret", nullValue());
    }

    // ---- helpers ----

    private static String asanaTenant() {
        return tenant().provider("asana").secrets(PLACEHOLDER).provision();
    }

    private static Response open(String tenantId, String body) {
        return Signed.command(body).when().post("/control/tenants/" + tenantId + "/handshake/asana");
    }

    /** Asana's handshake: a POST with X-Hook-Secret and an empty body. */
    private static Response handshake(String tenantId, String secret) {
        return given().header("X-Hook-Secret", secret).post("/webhook/" + tenantId);
    }

    private static Response event(String tenantId, String secret) {
        byte[] body = EVENT.getBytes(StandardCharsets.UTF_8);
        return given().header("X-Hook-Signature", Signed.signature(secret, body)).contentType("application/json")
                .body(body).post("/webhook/" + tenantId);
    }

    private String rawSecrets(String tenantId) {
        return pool.preparedQuery("SELECT array_to_string(secrets_encrypted, ',') AS s FROM tenants WHERE tenant_id = $1")
                .execute(Tuple.of(tenantId)).await().indefinitely().iterator().next().getString("s");
    }

    private List<String> storedSecrets(String tenantId) {
        Row row = pool.preparedQuery("SELECT secrets_encrypted FROM tenants WHERE tenant_id = $1")
                .execute(Tuple.of(tenantId)).await().indefinitely().iterator().next();
        List<String> open = new ArrayList<>();
        for (String sealed : row.getArrayOfStrings("secrets_encrypted")) {
            open.add(cipher.open(sealed, tenantId, SecretCipher.Field.PROVIDER_SECRET));
        }
        return open;
    }

    private long count(String sql, String tenantId) {
        return pool.preparedQuery(sql).execute(Tuple.of(tenantId)).await().indefinitely().iterator().next().getLong(0);
    }
}
