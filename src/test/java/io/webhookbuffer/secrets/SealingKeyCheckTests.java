package io.webhookbuffer.secrets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import java.util.UUID;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * The start-up check of the secrets keys ({@link SealingKeyCheck}), invoked against the real database: a key id mapped
 * to other bytes than those that sealed the stored values is a problem naming the id (never a key), whether the id's
 * check value is recorded yet or not; the right bytes pass and record it. {@code StartupRefusalsIT} starts the
 * packaged service so.
 */
@QuarkusTest
class SealingKeyCheckTests {

    private static final String B1 = SecretCipherTests.key(0x41);
    private static final String B2 = SecretCipherTests.key(0x42);

    @Inject
    Pool pool;

    @Inject
    SecretCipher cipher;

    @Test
    void anIdMappedToOtherBytesIsAProblemBeforeAndAfterItsCheckValueIsRecorded() {
        String id = "k41-" + UUID.randomUUID().toString().substring(0, 8);
        SecretCipher sealer = cipher(id + ":" + B1);
        String a = "seal-" + id + "-a";
        String b = "seal-" + id + "-b";
        insertSealed(sealer, a, "sealed-under-b1-a");
        insertSealed(sealer, b, "sealed-under-b1-b");

        // A database sealed before check values were kept: the stored values tell.
        List<String> problems = check(cipher(id + ":" + B2));
        assertEquals(1, problems.size(), problems.toString());
        assertTrue(problems.get(0).contains("key id '" + id + "'"), problems.get(0));
        assertTrue(problems.get(0).contains("none of the stored values sealed under it opens"), problems.get(0));
        assertNoKeyIn(problems.get(0));
        assertEquals(0, recorded(id), "nothing recorded for bytes that do not open the stored values");

        // The right bytes pass, and record the id's check value: not the key.
        assertEquals(List.of(), check(cipher(id + ":" + B1)));
        assertEquals(1, recorded(id));
        String stored = pool.preparedQuery("SELECT check_value FROM secret_key_checks WHERE key_id = $1")
                .execute(Tuple.of(id)).await().indefinitely().iterator().next().getString("check_value");
        assertNoKeyIn(stored);

        // With the check value recorded, other bytes are refused even when no tenant is sealed under the id any more.
        pool.preparedQuery("DELETE FROM tenants WHERE tenant_id = ANY($1)").execute(Tuple.of(new String[] {a, b}))
                .await().indefinitely();
        problems = check(cipher(id + ":" + B2));
        assertEquals(1, problems.size(), problems.toString());
        assertTrue(problems.get(0).contains("key id '" + id + "'")
                && problems.get(0).contains("its check value in secret_key_checks differs"), problems.get(0));
        assertNoKeyIn(problems.get(0));
        assertEquals(List.of(), check(cipher(id + ":" + B1)));
    }

    /** A new key id with nothing sealed under it yet is recorded at once: a second replica with other bytes is refused. */
    @Test
    void aNewKeyIdIsRecordedSoReplicasCannotDisagreeOnIt() {
        String id = "k41-" + UUID.randomUUID().toString().substring(0, 8);
        assertEquals(List.of(), check(cipher(id + ":" + B1)));
        List<String> problems = check(cipher(id + ":" + B2));
        assertEquals(1, problems.size(), problems.toString());
        assertTrue(problems.get(0).contains("key id '" + id + "'"), problems.get(0));
    }

    @Test
    void theServicesOwnKeysPass() {
        assertEquals(List.of(), check(cipher));
        assertEquals(1, recorded(cipher.activeKeyId()));
    }

    private List<String> check(SecretCipher with) {
        return new SealingKeyCheck(pool, with).verify().await().indefinitely().problems();
    }

    private long recorded(String id) {
        return pool.preparedQuery("SELECT count(*) FROM secret_key_checks WHERE key_id = $1").execute(Tuple.of(id))
                .await().indefinitely().iterator().next().getLong(0);
    }

    private static void assertNoKeyIn(String text) {
        for (String key : List.of(B1, B2)) {
            assertFalse(text.contains(key) || text.contains(key.replace('+', '-').replace('/', '_').replace("=", "")),
                    "a key in: " + text);
        }
    }

    private static SecretCipher cipher(String entry) {
        return new SecretCipher(Keyring.parse(List.of(entry), Optional.empty()));
    }

    private void insertSealed(SecretCipher sealer, String tenantId, String secret) {
        String sealed = sealer.seal(secret, tenantId, SecretCipher.Field.PROVIDER_SECRET);
        pool.preparedQuery("INSERT INTO tenants (tenant_id, active, provider, secrets_encrypted, rate_limit, "
                + "rate_window_seconds) VALUES ($1, true, 'generic', $2, 1000, 10)")
                .execute(Tuple.of(tenantId, new String[] {sealed})).await().indefinitely();
    }
}
