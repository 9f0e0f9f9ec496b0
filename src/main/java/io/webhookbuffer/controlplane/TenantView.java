package io.webhookbuffer.controlplane;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonRawValue;

import io.webhookbuffer.common.Hmac;

/**
 * A tenant as the control plane sees it: everything but the secrets, which are write-only. Each secret appears as a
 * fingerprint (first 12 hex digits of its SHA-256) so an operator can tell which ones are active.
 */
public record TenantView(String tenantId, boolean active, boolean paused, String provider, int secretCount,
        List<String> secretFingerprints, int rateLimit, int rateWindowSeconds, Integer maxBodyBytes,
        String originUrl, Integer deliveryRate, OffsetDateTime billingAnchor, String billingCadence,
        OffsetDateTime createdAt, OffsetDateTime updatedAt, String publicUrl, Integer toleranceSeconds,
        @JsonRawValue String customScheme) {

    static TenantView of(TenantEntity e) {
        return new TenantView(e.tenantId, e.active, e.paused, e.provider, e.secrets.length,
                Arrays.stream(e.secrets).map(Hmac::fingerprint).toList(), e.rateLimit, e.rateWindowSeconds,
                e.maxBodyBytes, e.originUrl, e.deliveryRate,
                e.billingAnchor == null ? null : e.billingAnchor.withOffsetSameInstant(ZoneOffset.UTC),
                e.billingCadence, e.createdAt, e.updatedAt, e.publicUrl, e.toleranceSeconds, e.customScheme);
    }
}
