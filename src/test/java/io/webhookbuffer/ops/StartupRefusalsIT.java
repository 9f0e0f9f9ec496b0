package io.webhookbuffer.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
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
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

import io.webhookbuffer.local.LocalServers;
import io.webhookbuffer.testsupport.ServiceProcess;

/**
 * The packaged service (prod profile) refuses to start on a configuration it must not serve with, and its log says
 * why, naming the setting and never a secret: no secrets key, unsafe secrets, a key id mapped to other bytes than
 * those that sealed the stored secrets. Each test starts processes of its own; the three run at once (failsafe's
 * lane waits for all of them, docs/testing.md), since each start is mostly a JVM booting.
 */
class StartupRefusalsIT {

    /**
     * Seconds when the machine is idle; the bound is for a machine busy with other builds (60 s, which one of them
     * had, was too short at a load average of 28: the process was still starting).
     */
    private static final long REFUSAL_SECONDS = 180;

    /** Outside local mode there is no key of its own: it says which setting to set and how to make a key. */
    @Test
    @Execution(ExecutionMode.CONCURRENT)
    void withoutAKeyTheServiceRefusesToStartAndSaysWhy() throws Exception {
        String log = refusal("secrets-key-required", Map.of("BUFFER_SECRETS_KEYS", ""));
        assertTrue(log.contains("buffer.secrets.keys is required outside local mode"), log);
        assertTrue(log.contains("openssl rand -base64 32"), "how to make one");
        assertEquals(false, log.contains("Listening on"), "it never served");
    }

    /**
     * A placeholder from the Secret template, a published demo value, a control secret under 32 bytes, a status token
     * under 32 characters: the start-up error names each setting and never prints a value.
     */
    @Test
    @Execution(ExecutionMode.CONCURRENT)
    void theServiceRefusesToStartNamingEachUnsafeSetting() throws Exception {
        Map<String, String> unsafe = Map.of(
                "BUFFER_CONTROL_SECRET", "REPLACE_ME_32_RANDOM_BYTES",
                "BUFFER_CONTROL_PREVIOUS_SECRET", "previous-secret-of-31-bytes-xyz",
                "BUFFER_ORIGIN_TOKEN", "demo-origin-token",
                "BUFFER_STATUS_TOKEN", "status-token-of-24-chars");
        String log = refusal("unsafe-secrets", unsafe);
        for (String problem : new String[] { "buffer.control.secret is still a placeholder",
                "buffer.control.previous-secret must be at least 32 bytes", "buffer.origin.token is a demo value",
                "buffer.status.token (length) must be between 32 and 4096, was 24" }) {
            assertTrue(log.contains(problem), "the start-up error says: " + problem + "\n" + log);
        }
        for (String value : unsafe.values()) {
            assertFalse(log.contains(value), "a secret's value is never printed: " + value);
        }
    }

    /**
     * Tenants sealed under key id K, then a restart with K mapped to other bytes: it refuses to start (so a rolling
     * deploy stops there and the old replicas keep serving), and its log names the key id, never a key. Before: it
     * turned ready (the warm-up's tenant is in memory) and every real tenant answered 503.
     */
    @Test
    @Execution(ExecutionMode.CONCURRENT)
    void aRestartWithTheKeyIdMappedToOtherBytesRefusesToStart() throws Exception {
        String id = "k41-" + UUID.randomUUID().toString().substring(0, 8);
        String b1 = key(0x41);
        String b2 = key(0x42);
        String tenant = "sealed-" + id;
        try {
            // The first process only seals a tenant: a short warm-up (the one that must refuse keeps the default).
            try (ServiceProcess first = ServiceProcess.start("sealing-key-first",
                    ServiceProcess.shortWarmup(Map.of("BUFFER_SECRETS_KEYS", id + ":" + b1)))) {
                first.awaitReady();
                assertEquals(200, first.command(tenant, "{\"secrets\":[\"sealed-under-b1\"]}"));
                first.close();
                first.process().waitFor(60, TimeUnit.SECONDS);
            }
            String log = refusal("sealing-key-other-bytes", Map.of("BUFFER_SECRETS_KEYS", id + ":" + b2));
            assertTrue(log.contains("buffer.secrets.keys maps key id '" + id + "' to other bytes"), log);
            assertFalse(log.contains(b1) || log.contains(b2), "a key in the log");
            assertFalse(log.contains("Listening on"), "it never served");
        } finally {
            forget(tenant, id);
        }
    }

    /** Starts the service with {@code env}, sees it exit non-zero by itself, and returns its log. */
    private static String refusal(String name, Map<String, String> env) throws IOException, InterruptedException {
        try (ServiceProcess service = ServiceProcess.start(name, env)) {
            assertTrue(service.process().waitFor(REFUSAL_SECONDS, TimeUnit.SECONDS), "the service should stop by itself");
            assertNotEquals(0, service.process().exitValue(), "a refusal exits non-zero");
        }
        return Files.readString(Path.of("target", name + ".log"), StandardCharsets.UTF_8);
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
