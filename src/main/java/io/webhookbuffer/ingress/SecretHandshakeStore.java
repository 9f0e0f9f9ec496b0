package io.webhookbuffer.ingress;

import java.util.concurrent.CompletionStage;

/**
 * Where a provider's secret handshake (Asana's {@code X-Hook-Secret}) is kept: implemented by the control plane, which
 * owns the tenants table and the windows its signed command opens. A port, so that ingress never writes tenants itself.
 */
public interface SecretHandshakeStore {

    /**
     * In one transaction: if the tenant has an open handshake window for {@code provider} and its provider is still
     * that one, closes the window, stores {@code secret} sealed as the tenant's only provider secret and records its
     * use; then tells every replica the tenant changed. Completes with true once all that is committed, false when
     * there was no open window (nothing stored), or fails when the database could not be reached.
     */
    CompletionStage<Boolean> storeIfWindowOpen(String tenantId, String provider, String secret);
}
