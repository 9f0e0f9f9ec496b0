package io.webhookbuffer.controlplane;

import static io.restassured.RestAssured.given;
import static io.webhookbuffer.testsupport.TestTenants.tenant;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import jakarta.inject.Inject;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import io.webhookbuffer.common.Hmac;
import io.webhookbuffer.secrets.SecretCipher;
import io.webhookbuffer.testsupport.Signed;

/**
 * Commands on one tenant serialise: two sent at the same moment both take effect, and a command never writes back a
 * tenant it read before another writer (a command, the secret handshake) changed it. Counts, not timing: every tenant
 * is checked, and the race of the handshake is forced into the losing order with a row lock held by the test.
 */
@QuarkusTest
class ConcurrentCommandsTests {

    private static final int TENANTS = 20;
    private static final String OLD = "concurrent-old-secret";
    private static final String NEW = "concurrent-new-secret";

    @Inject
    Pool pool;

    @Inject
    DataSource database;

    @Inject
    SecretCipher cipher;

    /** Before the fix, one of the two was lost on most tenants (8 of 10 in the trial). */
    @Test
    void pauseAndAddSecretSentTogetherBothHoldOnEveryTenant() throws Exception {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < TENANTS; i++) {
            ids.add(tenant().secrets(OLD).provision());
        }
        ExecutorService senders = Executors.newFixedThreadPool(2 * TENANTS);
        try {
            List<Future<Response>> sent = new ArrayList<>();
            for (String id : ids) {
                CyclicBarrier together = new CyclicBarrier(2);
                sent.add(senders.submit(() -> {
                    together.await(30, TimeUnit.SECONDS);
                    return Signed.command("").post("/control/tenants/" + id + "/pause");
                }));
                sent.add(senders.submit(() -> {
                    together.await(30, TimeUnit.SECONDS);
                    return Signed.command("{\"add\":\"" + NEW + "\"}").post("/control/tenants/" + id + "/secrets");
                }));
            }
            for (Future<Response> f : sent) {
                Response r = f.get(60, TimeUnit.SECONDS);
                assertEquals(200, r.statusCode(), r.asString());
            }
        } finally {
            senders.shutdownNow();
        }
        List<String> paused = new ArrayList<>();
        List<String> withNew = new ArrayList<>();
        List<String> verifying = new ArrayList<>();
        for (String id : ids) {
            Response view = Signed.command("").get("/control/tenants/" + id);
            if (Boolean.TRUE.equals(view.path("paused"))) {
                paused.add(id);
            }
            if (view.<List<String>>path("secretFingerprints").contains(Hmac.fingerprint(NEW))) {
                withNew.add(id);
            }
            if (Signed.webhook(NEW, "{\"n\":1}").post("/webhook/" + id).statusCode() == 202) {
                verifying.add(id);
            }
        }
        assertEquals(TENANTS, paused.size(), "tenants paused: " + paused.size() + " of " + TENANTS);
        assertEquals(TENANTS, withNew.size(), "tenants holding the added secret: " + withNew.size() + " of " + TENANTS);
        assertEquals(TENANTS, verifying.size(), "tenants verifying the added secret: " + verifying.size() + " of "
                + TENANTS);
    }

    /**
     * Asana's handshake stores its secret while a PUT is in flight on the same tenant. The test holds the tenant's
     * row lock so that both wait at the database, the handshake first; released, the handshake commits first, and
     * the PUT must then work on the row as the handshake left it, not on the one it read before.
     */
    @Test
    void aPutBesideTheSecretHandshakeKeepsTheHandshakesSecret() throws Exception {
        String placeholder = "asana-placeholder-concurrent";
        String secret = "d".repeat(64);
        String id = tenant().provider("asana").secrets(placeholder).provision();
        Signed.command("{}").post("/control/tenants/" + id + "/handshake/asana").then().statusCode(200);
        ExecutorService senders = Executors.newFixedThreadPool(2);
        try (Connection gate = database.getConnection()) {
            gate.setAutoCommit(false);
            lockRow(gate, id);
            Future<Response> handshake = senders.submit(
                    () -> given().header("X-Hook-Secret", secret).post("/webhook/" + id));
            awaitWaitersOnTenants(1);
            Future<Response> put = senders.submit(
                    () -> Signed.command("{\"rateLimit\":77}").put("/control/tenants/" + id));
            awaitWaitersOnTenants(2);
            gate.commit();
            Response shook = handshake.get(60, TimeUnit.SECONDS);
            assertEquals(200, shook.statusCode(), shook.asString());
            assertEquals(secret, shook.header("X-Hook-Secret"));
            Response changed = put.get(60, TimeUnit.SECONDS);
            assertEquals(200, changed.statusCode(), changed.asString());
        } finally {
            senders.shutdownNow();
        }
        assertEquals(List.of(secret), storedSecrets(id), "the handshake's secret is the tenant's secret");
        assertEquals(77, Signed.command("").get("/control/tenants/" + id).<Integer>path("rateLimit"));
    }

    private static void lockRow(Connection gate, String id) throws SQLException {
        try (PreparedStatement st = gate.prepareStatement("SELECT 1 FROM tenants WHERE tenant_id = ? FOR UPDATE")) {
            st.setString(1, id);
            st.executeQuery().close();
        }
    }

    /** Until {@code n} sessions wait for a lock in a statement on the tenants table (the gate's row lock). */
    private void awaitWaitersOnTenants(int n) {
        Awaitility.await().atMost(30, TimeUnit.SECONDS).until(() -> {
            try (Connection c = database.getConnection(); PreparedStatement st = c.prepareStatement(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                            + "AND wait_event_type = 'Lock' AND query ILIKE '%tenants%'");
                    ResultSet rs = st.executeQuery()) {
                rs.next();
                return rs.getInt(1) >= n;
            }
        });
    }

    private List<String> storedSecrets(String tenantId) {
        Row row = pool.preparedQuery("SELECT secrets_encrypted FROM tenants WHERE tenant_id = $1")
                .execute(Tuple.of(tenantId)).await().indefinitely().iterator().next();
        List<String> open = new ArrayList<>();
        for (String sealed : row.getArrayOfStrings("secrets_encrypted")) {
            open.add(cipher.open(sealed, tenantId, SecretCipher.Field.PROVIDER_SECRET));
        }
        assertTrue(!open.isEmpty());
        return open;
    }
}
