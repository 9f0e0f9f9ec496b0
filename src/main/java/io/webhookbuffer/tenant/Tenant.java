package io.webhookbuffer.tenant;

import java.time.Instant;
import java.util.List;
import java.util.regex.Pattern;

import org.jboss.logging.Logger;

import io.webhookbuffer.common.OriginCredentials;
import io.webhookbuffer.verify.Providers;
import io.webhookbuffer.verify.SenderRetries;
import io.webhookbuffer.verify.SignatureScheme;
import io.webhookbuffer.verify.SignatureVerifier;

/**
 * A tenant's ingest configuration as ingress sees it. {@code secrets} are the active signing secrets,
 * current first; they are never logged or serialised ({@link #toString()} hides them). They are opened (decrypted) once,
 * when the tenant is loaded into the cache: the hot path never decrypts.
 *
 * @param maxBodyBytes null means the service default ({@code buffer.ingress.max-body-bytes})
 * @param originUrl null means the service default ({@code buffer.origin.base-url})
 * @param deliveryRate most events per second delivered to the origin; null means no pace
 * @param publicUrl the URL the provider signs (Square, Twilio), exactly as configured there; null otherwise
 * @param toleranceSeconds the tenant's override of its scheme's timestamp tolerance; null means the scheme's own
 * @param customScheme the tenant's own scheme when {@code provider} is {@code custom}; null otherwise
 * @param originCredentials what batches to the tenant's own {@code originUrl} carry; {@link OriginCredentials#NONE}
 *        when it has none (the global credentials never go to a tenant's own origin)
 * @param maxQueuedBytes the tenant's queue quota in body bytes; null means the service default
 *        ({@code buffer.queue.max-queued-bytes-per-tenant})
 * @param handshakeClosesAt when the tenant's open secret-handshake window (Asana's) ends; null when none is open. Read
 *        with the row, so a handshake outside a window is refused from memory, with no query
 * @param senderRetries what the tenant's sender does after a refusal, as the tenant set it; null means its provider's
 *        ({@link Providers#retries}): it decides what the rate limit means ({@link #storesOverLimit()})
 * @param trustTraceContext whether the sender's own {@code traceparent} becomes the parent of its ingest span (false:
 *        a new trace, the sender's only linked; docs/operations.md "Tracing")
 */
public record Tenant(String id, boolean active, String provider, List<String> secrets, int rateLimit,
        int rateWindowSeconds, Integer maxBodyBytes, String originUrl, Integer deliveryRate, String publicUrl,
        Integer toleranceSeconds, SignatureScheme customScheme, OriginCredentials originCredentials,
        Long maxQueuedBytes, Instant handshakeClosesAt, SenderRetries senderRetries, boolean trustTraceContext) {

    public static final Pattern ID_PATTERN = Pattern.compile("^[A-Za-z0-9_-]{1,64}$");
    /**
     * Most active secrets a tenant has: previous, current and next. Each costs one HMAC over the body of every request,
     * authentic or not, so the cap bounds what a bad signature costs; a rotation never needs more than these three
     * (add the next, move senders over, retire the previous). The control plane refuses more.
     */
    public static final int MAX_ACTIVE_SECRETS = 3;
    private static final Logger LOG = Logger.getLogger(Tenant.class);

    public Tenant {
        if (secrets.size() > MAX_ACTIVE_SECRETS) {
            // A row stored before the cap (up to 10 were accepted) keeps working with its newest secrets: they are
            // stored current first. Never the secrets themselves in the message.
            LOG.warnf("Tenant '%s' has %d active secrets; only the newest %d are used. Retire the others "
                    + "(POST /control/tenants/%s/secrets {\"retire\": ...}).", id, secrets.size(), MAX_ACTIVE_SECRETS, id);
            secrets = secrets.subList(0, MAX_ACTIVE_SECRETS);
        }
        secrets = List.copyOf(secrets);
        originCredentials = originCredentials == null ? OriginCredentials.NONE : originCredentials;
    }

    /** A tenant whose sender's trace context is not trusted. */
    public Tenant(String id, boolean active, String provider, List<String> secrets, int rateLimit,
            int rateWindowSeconds, Integer maxBodyBytes, String originUrl, Integer deliveryRate, String publicUrl,
            Integer toleranceSeconds, SignatureScheme customScheme, OriginCredentials originCredentials,
            Long maxQueuedBytes, Instant handshakeClosesAt, SenderRetries senderRetries) {
        this(id, active, provider, secrets, rateLimit, rateWindowSeconds, maxBodyBytes, originUrl, deliveryRate,
                publicUrl, toleranceSeconds, customScheme, originCredentials, maxQueuedBytes, handshakeClosesAt,
                senderRetries, false);
    }

    /** A tenant whose sender retries as its provider documents. */
    public Tenant(String id, boolean active, String provider, List<String> secrets, int rateLimit,
            int rateWindowSeconds, Integer maxBodyBytes, String originUrl, Integer deliveryRate, String publicUrl,
            Integer toleranceSeconds, SignatureScheme customScheme, OriginCredentials originCredentials,
            Long maxQueuedBytes, Instant handshakeClosesAt) {
        this(id, active, provider, secrets, rateLimit, rateWindowSeconds, maxBodyBytes, originUrl, deliveryRate,
                publicUrl, toleranceSeconds, customScheme, originCredentials, maxQueuedBytes, handshakeClosesAt, null);
    }

    /** A tenant with the default queue quota and no handshake window open. */
    public Tenant(String id, boolean active, String provider, List<String> secrets, int rateLimit,
            int rateWindowSeconds, Integer maxBodyBytes, String originUrl, Integer deliveryRate, String publicUrl,
            Integer toleranceSeconds, SignatureScheme customScheme, OriginCredentials originCredentials) {
        this(id, active, provider, secrets, rateLimit, rateWindowSeconds, maxBodyBytes, originUrl, deliveryRate,
                publicUrl, toleranceSeconds, customScheme, originCredentials, null, null);
    }

    /** A tenant without credentials of its own for its origin, with the default queue quota. */
    public Tenant(String id, boolean active, String provider, List<String> secrets, int rateLimit,
            int rateWindowSeconds, Integer maxBodyBytes, String originUrl, Integer deliveryRate, String publicUrl,
            Integer toleranceSeconds, SignatureScheme customScheme) {
        this(id, active, provider, secrets, rateLimit, rateWindowSeconds, maxBodyBytes, originUrl, deliveryRate,
                publicUrl, toleranceSeconds, customScheme, OriginCredentials.NONE, null, null);
    }

    /** What the tenant's sender does after a refusal: its own setting, else its provider's. */
    public SenderRetries retries() {
        return senderRetries != null ? senderRetries : Providers.retries(provider);
    }

    /**
     * The admission policy over the rate limit: true when an event over it is stored (202, {@code reason: paced}) and
     * the limit paces delivery instead, because the sender would not send a refused event again.
     */
    public boolean storesOverLimit() {
        return !retries().refusesOverLimit();
    }

    /**
     * The pace of delivery in events per {@code perSeconds}: the slower of the tenant's {@code deliveryRate} (per
     * second) and, when over-limit events are stored, its rate limit (per window); null when neither applies.
     */
    public Pace deliveryPace() {
        Pace own = deliveryRate == null ? null : new Pace(deliveryRate, 1);
        if (!storesOverLimit()) {
            return own;
        }
        Pace limit = new Pace(rateLimit, rateWindowSeconds);
        return own == null || limit.slowerThan(own) ? limit : own;
    }

    /** {@code events} per {@code perSeconds}. */
    public record Pace(int events, int perSeconds) {
        boolean slowerThan(Pace other) {
            return (long) events * other.perSeconds < (long) other.events * perSeconds;
        }
    }

    /** Whether a secret handshake may be offered to the database now: a window is open, as far as this replica knows. */
    public boolean handshakeWindowOpen(Instant now) {
        return handshakeClosesAt != null && now.isBefore(handshakeClosesAt);
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
                + ", toleranceSeconds=" + toleranceSeconds + ", customScheme=" + (customScheme != null) + ", originCredentials="
                + originCredentials + ", maxQueuedBytes=" + maxQueuedBytes + ", senderRetries=" + senderRetries
                + ", trustTraceContext=" + trustTraceContext + "]";
    }
}
