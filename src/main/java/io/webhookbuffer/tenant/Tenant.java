package io.webhookbuffer.tenant;

import java.util.List;
import java.util.regex.Pattern;

import io.webhookbuffer.verify.Providers;
import io.webhookbuffer.verify.SignatureScheme;
import io.webhookbuffer.verify.SignatureVerifier;

/**
 * A tenant's ingest configuration as ingress sees it. {@code secrets} are the active signing secrets,
 * current first; they are never logged or serialised ({@link #toString()} hides them).
 *
 * @param maxBodyBytes null means the service default ({@code buffer.ingress.max-body-bytes})
 * @param originUrl null means the service default ({@code buffer.origin.base-url})
 * @param deliveryRate most events per second delivered to the origin; null means no pace
 * @param publicUrl the URL the provider signs (Square, Twilio), exactly as configured there; null otherwise
 * @param toleranceSeconds the tenant's override of its scheme's timestamp tolerance; null means the scheme's own
 * @param customScheme the tenant's own scheme when {@code provider} is {@code custom}; null otherwise
 */
public record Tenant(String id, boolean active, String provider, List<String> secrets, int rateLimit,
        int rateWindowSeconds, Integer maxBodyBytes, String originUrl, Integer deliveryRate, String publicUrl,
        Integer toleranceSeconds, SignatureScheme customScheme) {

    public static final Pattern ID_PATTERN = Pattern.compile("^[A-Za-z0-9_-]{1,64}$");

    public Tenant {
        secrets = List.copyOf(secrets);
    }

    public static boolean isValidId(String id) {
        return id != null && ID_PATTERN.matcher(id).matches();
    }

    public int maxBodyBytes(int serviceDefault) {
        return maxBodyBytes == null ? serviceDefault : maxBodyBytes;
    }

    /** The tenant's verifier, or null when its settings make none (ingress then refuses every request). */
    public SignatureVerifier verifier() {
        return Providers.verifier(provider, publicUrl, toleranceSeconds, customScheme);
    }

    @Override
    public String toString() {
        return "Tenant[id=" + id + ", active=" + active + ", provider=" + provider + ", secrets=<" + secrets.size()
                + " hidden>, rateLimit=" + rateLimit + ", rateWindowSeconds=" + rateWindowSeconds + ", maxBodyBytes="
                + maxBodyBytes + ", originUrl=" + originUrl + ", deliveryRate=" + deliveryRate + ", publicUrl=" + publicUrl
                + ", toleranceSeconds=" + toleranceSeconds + ", customScheme=" + (customScheme != null) + "]";
    }
}
