package io.webhookbuffer.delivery;

import static io.webhookbuffer.testsupport.TestTenants.tenant;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.webhookbuffer.common.Hmac;
import io.webhookbuffer.testsupport.Events;
import io.webhookbuffer.testsupport.FakeOrigin;
import io.webhookbuffer.testsupport.FakeOriginResource;
import io.webhookbuffer.testsupport.InjectFakeOrigin;
import io.webhookbuffer.testsupport.Signed;

/**
 * Who gets which credentials, on real HTTP origins: a tenant's own origin receives the tenant's own token and batch
 * signature and never the global ones (which open the global origin's {@code /internal/*}); one without credentials
 * of its own receives no {@code Authorization} and no signature; the global origin keeps receiving the global pair.
 */
@QuarkusTest
@TestProfile(DeliveryProfile.class)
class TenantOriginCredentialsTests {

    private static final Duration PATIENCE = Duration.ofSeconds(20);

    @InjectFakeOrigin
    FakeOrigin global;

    @Test
    void aTenantsOwnOriginGetsItsOwnTokenAndSignatureNeverTheGlobalOnes() throws Exception {
        String token = "own-token-" + UUID.randomUUID();
        String signing = "own-signing-" + UUID.randomUUID();
        try (FakeOrigin own = new FakeOrigin()) {
            String t = tenant().provision();
            Signed.command("{\"originUrl\":\"" + own.baseUrl() + "\",\"originToken\":\"" + token
                    + "\",\"originSigningSecret\":\"" + signing + "\"}").put("/control/tenants/" + t).then()
                    .statusCode(200);
            Events.accept(t, "own-1");
            Events.accept(t, "own-2");
            await().atMost(PATIENCE).until(() -> own.events(t).size() >= 2);

            for (FakeOrigin.Batch batch : own.batches(t)) {
                assertEquals(List.of("Bearer " + token), batch.headers().get("Authorization"));
                assertEquals(signature(signing, batch), batch.headers().get("X-buffer-signature").get(0),
                        "signed with the tenant's own secret");
                assertNoGlobalCredential(batch);
            }
            assertEquals(List.of(), global.batches(t), "nothing of the tenant's went to the global origin");
        }
    }

    @Test
    void aTenantOriginWithoutCredentialsOfItsOwnGetsNone() throws Exception {
        try (FakeOrigin own = new FakeOrigin()) {
            String t = tenant().provision();
            Signed.command("{\"originUrl\":\"" + own.baseUrl() + "\"}").put("/control/tenants/" + t).then()
                    .statusCode(200);
            Events.accept(t, "bare-1");
            await().atMost(PATIENCE).until(() -> own.events(t).size() >= 1);
            FakeOrigin.Batch batch = own.batches(t).get(0);
            assertNull(batch.headers().get("Authorization"), "no token");
            assertNull(batch.headers().get("X-buffer-signature"), "no signature");
            assertNull(batch.headers().get("X-buffer-timestamp"));
            assertNoGlobalCredential(batch);
        }
    }

    @Test
    void theGlobalOriginStillGetsTheGlobalPair() {
        String t = tenant().provision();
        Events.accept(t, "global-1");
        await().atMost(PATIENCE).until(() -> global.events(t).size() >= 1);
        FakeOrigin.Batch batch = global.batches(t).get(0);
        assertEquals(List.of("Bearer " + FakeOriginResource.TOKEN), batch.headers().get("Authorization"));
        assertEquals(signature(FakeOriginResource.SIGNING_SECRET, batch), batch.headers().get("X-buffer-signature").get(0));
    }

    /** The batch signature a secret makes: hex HMAC-SHA256 over "{X-Buffer-Timestamp}.{body}". */
    private static String signature(String secret, FakeOrigin.Batch batch) {
        String ts = batch.headers().get("X-buffer-timestamp").get(0);
        return HexFormat.of().formatHex(Hmac.hmacSha256(secret, (ts + ".").getBytes(StandardCharsets.US_ASCII),
                batch.body()));
    }

    private static void assertNoGlobalCredential(FakeOrigin.Batch batch) {
        for (Map.Entry<String, List<String>> header : batch.headers().entrySet()) {
            for (String value : header.getValue()) {
                assertFalse(value.contains(FakeOriginResource.TOKEN), "the global token in " + header.getKey());
            }
        }
        List<String> sig = batch.headers().get("X-buffer-signature");
        if (sig != null) {
            assertTrue(!sig.get(0).equals(signature(FakeOriginResource.SIGNING_SECRET, batch)),
                    "signed with the global secret");
        }
    }
}
