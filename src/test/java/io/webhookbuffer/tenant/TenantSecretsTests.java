package io.webhookbuffer.tenant;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * A tenant stored before the cap on active secrets (up to 10 were accepted) keeps working with its newest
 * {@link Tenant#MAX_ACTIVE_SECRETS}: secrets are stored current first, so those are the ones a rotation still needs.
 */
class TenantSecretsTests {

    private static Tenant withSecrets(List<String> secrets) {
        return new Tenant("legacy", true, "generic", secrets, 100, 10, null, null, null, null, null, null);
    }

    @Test
    void aStoredTenantWithMoreSecretsUsesOnlyTheNewest() {
        Tenant tenant = withSecrets(List.of("s1", "s2", "s3", "s4", "s5"));
        assertEquals(List.of("s1", "s2", "s3"), tenant.secrets());
    }

    @Test
    void upToTheCapEverySecretIsKept() {
        assertEquals(List.of("a", "b", "c"), withSecrets(List.of("a", "b", "c")).secrets());
        assertEquals(List.of("a"), withSecrets(List.of("a")).secrets());
    }
}
