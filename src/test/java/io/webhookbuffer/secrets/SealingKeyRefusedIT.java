package io.webhookbuffer.secrets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.Base64;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.webhookbuffer.local.LocalServers;
import io.webhookbuffer.testsupport.ServiceProcess;

/**
 * Tenants sealed under key id K, then a restart with K mapped to other bytes: the packaged service refuses to start
 * (so a rolling deploy stops there and the old replicas keep serving), and its log names the key id, never a key.
 * Before: it turned ready (the warm-up's tenant is in memory) and every real tenant answered 503.
 */
class SealingKeyRefusedIT {

    @Test
    void aRestartWithTheKeyIdMappedToOtherBytesRefusesToStart() throws Exception {
        String id = "k41-" + UUID.randomUUID().toString().substring(0, 8);
        String b1 = key(0x41);
        String b2 = key(0x42);
        String tenant = "sealed-" + id;
        try {
            try (ServiceProcess first = ServiceProcess.start("sealing-key-first", Map.of("BUFFER_SECRETS_KEYS",
                    id + ":" + b1))) {
                first.awaitReady();
                assertEquals(200, first.command(tenant, "{\"secrets\":[\"sealed-under-b1\"]}"));
                first.close();
                first.process().waitFor(60, TimeUnit.SECONDS);
            }
            String name = "sealing-key-other-bytes";
            try (ServiceProcess second = ServiceProcess.start(name, Map.of("BUFFER_SECRETS_KEYS", id + ":" + b2))) {
                // Seconds when the machine is idle; the bound is for a machine busy with other builds.
                assertTrue(second.process().waitFor(180, TimeUnit.SECONDS), "the service should refuse to start");
                assertTrue(second.process().exitValue() != 0, "a refusal exits non-zero");
            }
            String log = Files.readString(Path.of("target", name + ".log"), StandardCharsets.UTF_8);
            assertTrue(log.contains("buffer.secrets.keys maps key id '" + id + "' to other bytes"), log);
            assertFalse(log.contains(b1) || log.contains(b2), "a key in the log");
            assertFalse(log.contains("Listening on"), "it never served");
        } finally {
            forget(tenant, id);
        }
    }

    private static String key(int fill) {
        byte[] key = new byte[32];
        Arrays.fill(key, (byte) fill);
        return Base64.getEncoder().encodeToString(key);
    }

    /** The shared test database keeps no tenant that the next replicas' key cannot open. */
    private static void forget(String tenant, String keyId) throws Exception {
        LocalServers.Endpoint pg = ServiceProcess.postgres();
        try (Connection c = DriverManager.getConnection("jdbc:postgresql://" + pg.host() + ":" + pg.port() + "/"
                + pg.database(), pg.user(), "")) {
            for (String sql : new String[] {"DELETE FROM tenants WHERE tenant_id = ?",
                    "DELETE FROM secret_key_checks WHERE key_id = ?"}) {
                try (PreparedStatement st = c.prepareStatement(sql)) {
                    st.setString(1, sql.contains("tenants") ? tenant : keyId);
                    st.executeUpdate();
                } catch (SQLException e) {
                    // before V20 there is no secret_key_checks: nothing to forget there
                }
            }
        }
    }
}
