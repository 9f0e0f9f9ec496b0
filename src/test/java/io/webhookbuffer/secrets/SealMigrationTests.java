package io.webhookbuffer.secrets;

import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import javax.sql.DataSource;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.webhookbuffer.common.Hmac;
import io.webhookbuffer.testsupport.Db;
import io.webhookbuffer.testsupport.PlaintextScan;
import io.webhookbuffer.testsupport.Signed;
import io.webhookbuffer.testsupport.ThrowawayDatabaseResource;
import io.webhookbuffer.testsupport.ThrowawayDatabaseResource.ClearTenant;

/**
 * The upgrade: a database at V12 holding tenants with their secrets in clear is migrated at start-up (V13, a Java
 * migration with the service's key) and afterwards holds no secret in clear in any column of any table, no clear
 * column, and tenants that verify exactly as before.
 */
@QuarkusTest
@TestProfile(UpgradeFromV12Profile.class)
class SealMigrationTests {

    @Inject
    DataSource database;

    @Test
    void afterStartUpNoSecretIsLeftInClearAndTenantsStillVerify() {
        List<String> secrets = ThrowawayDatabaseResource.CLEAR_TENANTS.stream()
                .flatMap(t -> t.secrets().stream()).toList();
        assertEquals(List.of(), PlaintextScan.find(database, secrets), "a secret left in clear after the migration");
        assertEquals(0, Db.count(database, "SELECT count(*) FROM information_schema.columns "
                + "WHERE table_name = 'tenants' AND column_name = 'secrets'"), "the clear column is gone");
        assertEquals(1, Db.count(database, "SELECT count(*) FROM flyway_schema_history "
                + "WHERE version = '13' AND success AND type = 'JDBC'"), "V13 ran as a Java migration");
        assertEquals(ThrowawayDatabaseResource.CLEAR_TENANTS.size(), Db.count(database,
                "SELECT count(*) FROM tenants WHERE secrets_encrypted[1] LIKE 'v1:%'"), "every row sealed");

        for (ClearTenant tenant : ThrowawayDatabaseResource.CLEAR_TENANTS) {
            Signed.command("").get("/control/tenants/" + tenant.id()).then().statusCode(200)
                    .body("secretFingerprints", equalTo(tenant.secrets().stream().map(Hmac::fingerprint).toList()));
            for (String secret : tenant.secrets()) {
                Signed.webhook(secret, "{\"upgraded\":\"" + Hmac.fingerprint(secret) + "\"}")
                        .post("/webhook/" + tenant.id()).then().statusCode(202);
            }
        }
        assertTrue(Db.count(database, "SELECT count(*) FROM tenants WHERE origin_url IS NOT NULL") > 0,
                "a tenant with an origin of its own came through too");
    }
}
