package io.webhookbuffer.secrets;

import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.UUID;

import javax.sql.DataSource;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import io.webhookbuffer.common.Hmac;
import io.webhookbuffer.controlplane.ControlPlaneProfile;
import io.webhookbuffer.testsupport.PlaintextScan;
import io.webhookbuffer.testsupport.Signed;

/**
 * No provisioned secret is stored in clear: after provisioning and rotating a tenant's provider secrets and its own
 * origin's credentials, every column of every table is searched for each of them (in clear, hex and base64) and none
 * is found; the tenant still verifies, and answers show fingerprints only. A sealed value copied to another tenant's
 * row does not open there (the tenant id is bound to it): that tenant fails closed.
 */
@QuarkusTest
@TestProfile(ControlPlaneProfile.class) // an origin on 127.0.0.1, so tenant originUrls there pass the origin trust rules
class SecretsAtRestTests {

    @Inject
    DataSource database;

    @Inject
    Pool pool;

    private static String newId() {
        return "rest-" + UUID.randomUUID().toString().substring(0, 12);
    }

    @Test
    void noProviderSecretIsStoredInClearAnywhere() {
        String id = newId();
        String current = "at-rest-current-" + UUID.randomUUID();
        String previous = "at-rest-previous-" + UUID.randomUUID();
        String added = "at-rest-added-" + UUID.randomUUID();
        Signed.command("{\"secrets\":[\"" + current + "\",\"" + previous + "\"]}").put("/control/tenants/" + id)
                .then().statusCode(200);
        Signed.command("{\"add\":\"" + added + "\"}").post("/control/tenants/" + id + "/secrets").then().statusCode(200);
        Signed.webhook(added, "{\"n\":1}").post("/webhook/" + id).then().statusCode(202);
        Signed.webhook(current, "{\"n\":2}").post("/webhook/" + id).then().statusCode(202);

        assertTrue(PlaintextScan.columns(database) > 50, "the scan reads the whole schema");
        assertEquals(List.of(), PlaintextScan.find(database, List.of(current, previous, added)),
                "columns holding a provider secret in clear (or hex/base64 of it)");
    }

    @Test
    void originCredentialsAreStoredSealedAndShownAsFingerprints() {
        String id = newId();
        String secret = "at-rest-provider-" + UUID.randomUUID();
        String token = "at-rest-origin-token-" + UUID.randomUUID();
        String signing = "at-rest-origin-signing-" + UUID.randomUUID();
        String body = "{\"secrets\":[\"" + secret + "\"],\"originUrl\":\"http://127.0.0.1:9001\",\"originToken\":\""
                + token + "\",\"originSigningSecret\":\"" + signing + "\"}";
        String answer = Signed.command(body).put("/control/tenants/" + id).then().statusCode(200)
                .body("originTokenFingerprint", equalTo(Hmac.fingerprint(token)))
                .body("originSigningSecretFingerprint", equalTo(Hmac.fingerprint(signing)))
                .extract().asString();
        Signed.command("").get("/control/tenants/" + id).then().statusCode(200)
                .body("originTokenFingerprint", equalTo(Hmac.fingerprint(token)));
        assertTrue(!answer.contains(token) && !answer.contains(signing), "answers carry fingerprints only");

        assertEquals(List.of(), PlaintextScan.find(database, List.of(secret, token, signing)),
                "columns holding an origin credential or provider secret in clear");
        String stored = pool.preparedQuery("SELECT origin_token_encrypted FROM tenants WHERE tenant_id = $1")
                .execute(Tuple.of(id)).await().indefinitely().iterator().next().getString(0);
        assertTrue(stored.startsWith("v1:"), "sealed: " + stored.substring(0, 3));
    }

    @Test
    void credentialsBelongToTheirOriginAndNeedOne() {
        String id = newId();
        Signed.command("{\"secrets\":[\"s-" + id + "\"],\"originToken\":\"t\"}").put("/control/tenants/" + id)
                .then().statusCode(400).body("detail", containsString("'originUrl'"));
        Signed.command("{\"secrets\":[\"s-" + id + "\"],\"originUrl\":\"http://127.0.0.1:9002\",\"originToken\":\"tok-a\"}")
                .put("/control/tenants/" + id).then().statusCode(200);
        Signed.command("{\"originUrl\":\"http://127.0.0.1:9003\"}").put("/control/tenants/" + id).then().statusCode(200)
                .body("originTokenFingerprint", nullValue());
        Signed.command("{\"originUrl\":\"http://127.0.0.1:9003\",\"originToken\":\"tok-b\"}").put("/control/tenants/" + id)
                .then().statusCode(200).body("originTokenFingerprint", equalTo(Hmac.fingerprint("tok-b")));
        Signed.command("{\"originToken\":\"tok-b\"}").put("/control/tenants/" + id).then().statusCode(200)
                .body("replay", equalTo(true));
        Signed.command("{\"originUrl\":null}").put("/control/tenants/" + id).then().statusCode(200)
                .body("originTokenFingerprint", nullValue());
    }

    /** The tenant id is bound to every sealed value: copied to another row, it does not open, and that tenant fails closed. */
    @Test
    void aSealedSecretMovedToAnotherTenantDoesNotOpenThere() {
        String victim = newId();
        String attacker = newId();
        String victimSecret = "victim-secret-" + UUID.randomUUID();
        Signed.command("{\"secrets\":[\"" + victimSecret + "\"]}").put("/control/tenants/" + victim).then().statusCode(200);
        Signed.command("{\"secrets\":[\"attacker-" + UUID.randomUUID() + "\"]}").put("/control/tenants/" + attacker)
                .then().statusCode(200);
        pool.preparedQuery("UPDATE tenants SET secrets_encrypted = (SELECT secrets_encrypted FROM tenants "
                + "WHERE tenant_id = $1), updated_at = now() WHERE tenant_id = $2")
                .execute(Tuple.of(victim, attacker)).await().indefinitely();

        Signed.webhook(victimSecret, "{\"moved\":1}").post("/webhook/" + attacker).then().statusCode(503);
        Signed.command("").get("/control/tenants/" + attacker).then().statusCode(409)
                .body("reason", equalTo("secrets_unreadable"))
                .body("detail", containsString("does not open"));
        Signed.webhook(victimSecret, "{\"moved\":2}").post("/webhook/" + victim).then().statusCode(202);

        String fresh = "replaced-" + UUID.randomUUID();
        Signed.command("{\"secrets\":[\"" + fresh + "\"]}").put("/control/tenants/" + attacker).then().statusCode(200)
                .body("secretFingerprints", equalTo(List.of(Hmac.fingerprint(fresh))));
        Signed.webhook(fresh, "{\"moved\":3}").post("/webhook/" + attacker).then().statusCode(202);
    }
}
