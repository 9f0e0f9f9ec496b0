package io.webhookbuffer.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.webhookbuffer.common.OriginCredentials;
import io.webhookbuffer.tenant.Tenant;

/** The global credentials go to the global origin only; a tenant's own origin gets the tenant's own, or none. */
class OriginCredentialChoiceTests {

    private static final String GLOBAL_BASE = "https://api.example.com";
    private static final OriginCredentials GLOBAL = new OriginCredentials("global-token", "global-signing");
    private static final OriginCredentials OWN = new OriginCredentials("own-token", "own-signing");

    private static Tenant tenant(String originUrl, OriginCredentials credentials) {
        return new Tenant("acme", true, "generic", List.of("s"), 100, 10, null, originUrl, null, null, null, null,
                credentials);
    }

    @Test
    void theGlobalOriginGetsTheGlobalCredentials() {
        assertEquals(GLOBAL, OriginCredentialChoice.forBatch(tenant(null, OriginCredentials.NONE), GLOBAL_BASE, GLOBAL));
        assertEquals(GLOBAL, OriginCredentialChoice.forBatch(null, GLOBAL_BASE, GLOBAL), "a tenant whose row is gone");
        assertEquals(GLOBAL, OriginCredentialChoice.forBatch(tenant(GLOBAL_BASE, OriginCredentials.NONE), GLOBAL_BASE,
                GLOBAL), "an originUrl that is the global origin's");
    }

    @Test
    void aTenantsOwnOriginGetsItsOwnCredentialsOrNone() {
        assertEquals(OWN, OriginCredentialChoice.forBatch(tenant("https://acme.example", OWN), GLOBAL_BASE, GLOBAL));
        assertEquals(OriginCredentials.NONE, OriginCredentialChoice.forBatch(
                tenant("https://acme.example", OriginCredentials.NONE), GLOBAL_BASE, GLOBAL));
        assertEquals(OriginCredentials.NONE, OriginCredentialChoice.forBatch(
                tenant("https://api.example.com.evil.example", OriginCredentials.NONE), GLOBAL_BASE, GLOBAL));
        OriginCredentials tokenOnly = new OriginCredentials("own-token", null);
        assertEquals(tokenOnly, OriginCredentialChoice.forBatch(tenant("https://acme.example", tokenOnly), GLOBAL_BASE,
                GLOBAL), "a part the tenant lacks is not filled in from the global pair");
        assertEquals(OWN, OriginCredentialChoice.forBatch(tenant(GLOBAL_BASE, OWN), GLOBAL_BASE, GLOBAL));
    }

    @Test
    void credentialsNeverShowInText() {
        assertEquals("OriginCredentials[token=<hidden>, signingSecret=none]",
                new OriginCredentials("own-token", " ").toString());
        String tenant = tenant("https://acme.example", OWN).toString();
        assertEquals(false, tenant.contains("own-token") || tenant.contains("own-signing"), tenant);
    }
}
