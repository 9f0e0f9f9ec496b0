package io.webhookbuffer.delivery;

import io.webhookbuffer.common.OriginCredentials;
import io.webhookbuffer.tenant.Tenant;

/**
 * Which credentials a batch carries: the destination's own, never another origin's. The global token and signing
 * secret open the global origin's {@code /internal/*}, so they go to the global origin only; whoever can set a
 * tenant's {@code originUrl} must not receive them.
 * <ul>
 * <li>a tenant without an {@code originUrl} (or unknown, its row gone): the global origin, the global credentials;</li>
 * <li>a tenant with an {@code originUrl} and credentials of its own: those (a part it lacks is not sent, never filled
 * in from the global pair);</li>
 * <li>a tenant whose {@code originUrl} is the global origin's base URL exactly (after trailing slashes): the global
 * credentials, since that is where they belong;</li>
 * <li>any other {@code originUrl}: none, no {@code Authorization} and no signature.</li>
 * </ul>
 */
final class OriginCredentialChoice {

    private OriginCredentialChoice() {
    }

    static OriginCredentials forBatch(Tenant tenant, String globalBase, OriginCredentials global) {
        if (tenant == null || tenant.originUrl() == null) {
            return global;
        }
        if (!tenant.originCredentials().isEmpty()) {
            return tenant.originCredentials();
        }
        return tenant.originUrl().equals(globalBase) ? global : OriginCredentials.NONE;
    }
}
