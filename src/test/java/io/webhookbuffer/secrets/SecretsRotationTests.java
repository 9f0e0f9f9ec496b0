package io.webhookbuffer.secrets;

import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import jakarta.inject.Inject;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import io.webhookbuffer.cli.BufferCtl;
import io.webhookbuffer.common.Hmac;
import io.webhookbuffer.tenant.TenantDirectory;
import io.webhookbuffer.testsupport.Signed;

/**
 * Rotating the key of secrets at rest with two keys listed and the new one active: rows sealed under the old key keep
 * working meanwhile; {@code bufferctl secrets reencrypt} moves every row to the new key in batches, with progress,
 * without touching {@code updated_at}; a second pass changes nothing; afterwards the new key alone opens everything, so
 * the old one can be removed. A row under a key that is not listed at all is reported, and the pass goes past it.
 */
@QuarkusTest
@TestProfile(OwnDatabaseProfile.class)
class SecretsRotationTests {

    /** What the old replicas (the old key active) sealed. */
    private static final SecretCipher OLD_CIPHER = cipher("old", OwnDatabaseProfile.OLD, OwnDatabaseProfile.NEW);
    private static final SecretCipher NEW_ONLY = cipher(null, OwnDatabaseProfile.NEW);

    @Inject
    Pool pool;

    @Inject
    TenantDirectory directory;

    /** This class's database is its own: each test starts from no tenant, whatever ran before. */
    @BeforeEach
    void noTenants() {
        pool.preparedQuery("DELETE FROM tenants").execute().await().indefinitely();
    }

    private static SecretCipher cipher(String active, String... keys) {
        return new SecretCipher(Keyring.parse(List.of(keys), Optional.ofNullable(active)));
    }

    @Test
    void reencryptMovesEveryRowToTheActiveKeyAndTheOldKeyCanGo() {
        Signed.command("{\"secrets\":[\"new-era-secret\"]}").put("/control/tenants/rot-new").then().statusCode(200);
        insertSealed(OLD_CIPHER, "rot-old-a", List.of("old-a-current", "old-a-previous"), null, null);
        insertSealed(OLD_CIPHER, "rot-old-b", List.of("old-b-only"), "old-b-token", "old-b-signing");
        insertSealed(OLD_CIPHER, "rot-old-c", List.of("old-c-only"), null, null);
        OffsetDateTime stamped = updatedAt("rot-old-a");

        // Meanwhile both keys open: the old rows verify and show their fingerprints.
        Signed.webhook("old-a-previous", "{\"during\":1}").post("/webhook/rot-old-a").then().statusCode(202);
        Signed.command("").get("/control/tenants/rot-old-b").then().statusCode(200)
                .body("originTokenFingerprint", equalTo(Hmac.fingerprint("old-b-token")));
        Signed.command("").get("/control/secrets").then().statusCode(200)
                .body("activeKey", equalTo("new")).body("tenantsToReencrypt", equalTo(3))
                .body("byKey.old.tenants", equalTo(3)).body("byKey.new.tenants", equalTo(1))
                .body("removableKeys", equalTo(List.of()));

        CliRun run = ctl("secrets", "reencrypt", "--batch-size", "2");
        assertEquals(0, run.code(), run.err());
        assertTrue(run.out().contains("re-encrypted 2 of 2 examined; 1 tenant(s) not yet under key 'new'"), run.out());
        assertTrue(run.out().contains("done: 3 tenant(s) re-encrypted under key 'new', 0 not under it"), run.out());

        for (Row row : rows()) {
            for (String value : values(row)) {
                assertTrue(value.startsWith("v1:new:"), row.getString("tenant_id") + " still under its old key");
            }
        }
        assertEquals(List.of("old-a-current", "old-a-previous"), openWithNewKeyOnly("rot-old-a"),
                "the new key alone opens what the old one sealed: the old key can be removed");
        assertEquals(List.of("old-b-only", "old-b-token", "old-b-signing"), openWithNewKeyOnly("rot-old-b"));
        assertEquals(stamped, updatedAt("rot-old-a"), "updated_at untouched: no cache reloads for a re-encryption");
        Signed.webhook("old-a-current", "{\"after\":1}").post("/webhook/rot-old-a").then().statusCode(202);
        Signed.command("").get("/control/secrets").then().statusCode(200).body("tenantsToReencrypt", equalTo(0))
                .body("removableKeys", equalTo(List.of("old"))).body("byKey.new.tenants", equalTo(4));

        Signed.command("{}").post("/control/secrets/reencrypt").then().statusCode(200)
                .body("reencrypted", equalTo(0)).body("more", equalTo(false)).body("remaining", equalTo(0));
    }

    @Test
    void aRowUnderAnUnlistedKeyIsReportedAndThePassGoesOn() {
        SecretCipher lost = cipher(null, "lost:" + SecretCipherTests.key(0x77));
        insertSealed(lost, "rot-lost", List.of("lost-secret"), null, null);
        insertSealed(OLD_CIPHER, "rot-old-z", List.of("old-z-only"), null, null);

        CliRun run = ctl("secrets", "reencrypt");
        assertEquals(BufferCtl.ERROR_ANSWER, run.code(), run.out());
        assertTrue(run.err().contains("rot-lost") && run.err().contains("'lost'"), run.err());
        assertTrue(!run.err().contains("lost-secret") && !run.out().contains("lost-secret"), "never a value");
        assertEquals(List.of("old-z-only"), openWithNewKeyOnly("rot-old-z"), "the pass went past the unreadable row");
        Signed.command("").get("/control/secrets").then().statusCode(200)
                .body("unconfiguredKeysInUse", equalTo(List.of("lost")));
        Signed.command("{\"after\":\"bad id!\"}").post("/control/secrets/reencrypt").then().statusCode(400);
        Signed.command("{\"limit\":0}").post("/control/secrets/reencrypt").then().statusCode(400);
        RestAssured.given().body("{}").post("/control/secrets/reencrypt").then().statusCode(401);
    }

    private record CliRun(int code, String out, String err) {
    }

    private static CliRun ctl(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = BufferCtl.run(args, new PrintWriter(out), new PrintWriter(err),
                Map.of("BUFFERCTL_URL", "http://localhost:" + RestAssured.port, "BUFFERCTL_SECRET", Signed.CONTROL_SECRET));
        return new CliRun(code, out.toString(), err.toString());
    }

    private void insertSealed(SecretCipher cipher, String id, List<String> secrets, String token, String signing) {
        TenantSecrets sealed = cipher.sealTenant(id, new TenantSecrets(secrets, token, signing));
        pool.preparedQuery("INSERT INTO tenants (tenant_id, active, provider, secrets_encrypted, rate_limit, "
                + "rate_window_seconds, origin_url, origin_token_encrypted, origin_signing_secret_encrypted) "
                + "VALUES ($1, true, 'generic', $2, 1000, 10, $3, $4, $5) ON CONFLICT (tenant_id) DO NOTHING")
                .execute(Tuple.from(Arrays.asList(id, sealed.providerSecrets().toArray(String[]::new),
                        token == null ? null : "https://" + id + ".example", sealed.originToken(),
                        sealed.originSigningSecret())))
                .await().indefinitely();
        // As the old replica's command announced it: every replica then knows the id (TenantDirectory's ids), as it
        // would have from its start-up read had the row been there before it started.
        directory.changed(id).toCompletableFuture().join();
    }

    private List<Row> rows() {
        List<Row> rows = new ArrayList<>();
        pool.preparedQuery("SELECT * FROM tenants WHERE tenant_id <> 'rot-lost'").execute().await().indefinitely()
                .forEach(rows::add);
        return rows;
    }

    private static List<String> values(Row row) {
        List<String> values = new ArrayList<>(List.of(row.getArrayOfStrings("secrets_encrypted")));
        for (String column : List.of("origin_token_encrypted", "origin_signing_secret_encrypted")) {
            if (row.getString(column) != null) {
                values.add(row.getString(column));
            }
        }
        return values;
    }

    private List<String> openWithNewKeyOnly(String id) {
        Row row = pool.preparedQuery("SELECT * FROM tenants WHERE tenant_id = $1").execute(Tuple.of(id)).await()
                .indefinitely().iterator().next();
        TenantSecrets opened = NEW_ONLY.openTenant(id, new TenantSecrets(List.of(row.getArrayOfStrings("secrets_encrypted")),
                row.getString("origin_token_encrypted"), row.getString("origin_signing_secret_encrypted")));
        List<String> clear = new ArrayList<>(opened.providerSecrets());
        if (opened.originToken() != null) {
            clear.add(opened.originToken());
            clear.add(opened.originSigningSecret());
        }
        return clear;
    }

    private OffsetDateTime updatedAt(String id) {
        return pool.preparedQuery("SELECT updated_at FROM tenants WHERE tenant_id = $1").execute(Tuple.of(id))
                .await().indefinitely().iterator().next().getOffsetDateTime(0);
    }
}
