package io.webhookbuffer.controlplane;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonRawValue;

import io.webhookbuffer.common.Hmac;
import io.webhookbuffer.verify.Providers;
import io.webhookbuffer.verify.SenderRetries;

/**
 * A tenant as the control plane sees it: everything but the secrets, which are write-only. Each secret appears as a
 * fingerprint (first 12 hex digits of its SHA-256) so an operator can tell which ones are active; so do the tenant's
 * own origin token and batch signing secret ({@code originTokenFingerprint}, {@code originSigningSecretFingerprint},
 * null when unset). {@code senderRetries} is the tenant's own setting (null: its provider's, docs/providers.md);
 * {@code overLimit} is what that makes of an event over the rate limit: {@code store} (202, paced) or {@code refuse}
 * (429). {@code trustTraceContext}: whether the sender's {@code traceparent} parents its ingest span.
 */
public record TenantView(String tenantId, boolean active, boolean paused, String provider, int secretCount,
        List<String> secretFingerprints, int rateLimit, int rateWindowSeconds, Integer maxBodyBytes,
        String originUrl, String originTokenFingerprint, String originSigningSecretFingerprint, Integer deliveryRate,
        OffsetDateTime billingAnchor, String billingCadence, OffsetDateTime createdAt, OffsetDateTime updatedAt,
        String publicUrl, Integer toleranceSeconds, @JsonRawValue String customScheme, Long maxQueuedBytes,
        String senderRetries, String overLimit, boolean trustTraceContext) {

    /** The view of an entity whose secrets are opened ({@link TenantEntity#secrets}). */
    static TenantView of(TenantEntity e) {
        return new TenantView(e.tenantId, e.active, e.paused, e.provider, e.secrets.length,
                Arrays.stream(e.secrets).map(Hmac::fingerprint).toList(), e.rateLimit, e.rateWindowSeconds,
                e.maxBodyBytes, e.originUrl, fingerprint(e.originToken), fingerprint(e.originSigningSecret),
                e.deliveryRate, e.billingAnchor == null ? null : e.billingAnchor.withOffsetSameInstant(ZoneOffset.UTC),
                e.billingCadence, e.createdAt, e.updatedAt, e.publicUrl, e.toleranceSeconds, e.customScheme,
                e.maxQueuedBytes, e.senderRetries, overLimit(e), e.trustTraceContext);
    }

    private static String overLimit(TenantEntity e) {
        SenderRetries own = SenderRetries.of(e.senderRetries);
        SenderRetries retries = own != null ? own : Providers.retries(e.provider);
        return retries.refusesOverLimit() ? "refuse" : "store";
    }

    private static String fingerprint(String secret) {
        return secret == null ? null : Hmac.fingerprint(secret);
    }
}
