package io.webhookbuffer.ingress;

import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.HttpHeaders;

import org.jboss.logging.Logger;

import io.vertx.core.json.JsonObject;
import io.webhookbuffer.actor.IngestResult;
import io.webhookbuffer.actor.TenantActors;
import io.webhookbuffer.common.EventIds;
import io.webhookbuffer.queue.IncomingEvent;
import io.webhookbuffer.tenant.Tenant;
import io.webhookbuffer.usage.UsageCounters;
import io.webhookbuffer.usage.UsageMetric;
import io.webhookbuffer.verify.AsanaHandshake;
import io.webhookbuffer.verify.HandshakeAnswer;
import io.webhookbuffer.verify.Providers;
import io.webhookbuffer.verify.SignatureVerifier;
import io.webhookbuffer.verify.VerificationFailure;

/**
 * The admission of one event whose tenant and body {@link IngressGate} has admitted: the usage counts, the
 * failed-verification budget, the signature over the raw bytes (on the event loop, or on the verification pool for
 * a large body), a provider's handshake, the dedupe key, and the tenant's actor. It decides; {@link WebhookResource}
 * turns the decision into HTTP. Runs on the event loop and never blocks.
 */
@ApplicationScoped
public class IngestService {

    private static final Logger LOG = Logger.getLogger(IngestService.class);

    /** Event ids longer than this are replaced by their SHA-256 (stable, so dedupe still works): {@link #dedupeKey}. */
    static final int MAX_EVENT_ID_LENGTH = EventIds.MAX_LENGTH;
    private static final String DEFAULT_CONTENT_TYPE = "application/octet-stream";

    /** What was decided about one request, before HTTP. */
    public sealed interface Admission {
    }

    /** Verified and handed to the tenant's actor: its decision. */
    public record Decided(IngestResult result) implements Admission {
    }

    /** The signature did not verify (or the tenant has no scheme this build knows). */
    public record Unauthorized(VerificationFailure failure) implements Admission {
    }


    /** No room on the verification pool for this large body (all tenants, or this tenant's share): no MAC. */
    public record VerificationBusy() implements Admission {
    }

    /** A verified endpoint check (Slack url_verification, Zoom endpoint.url_validation): nothing buffered. */
    public record Handshake(HandshakeAnswer answer) implements Admission {
    }

    /** A secret handshake taken in its window (Asana): the secret is committed; the answer echoes it in {@code header}. */
    public record SecretStored(String header, String secret) implements Admission {
        @Override
        public String toString() {
            return "SecretStored[" + header + ", hidden]";
        }
    }

    /** A secret handshake refused: nothing stored. {@code retryAfterSeconds} is set for {@link Why#RATE} only. */
    public record HandshakeRefused(Why why, long retryAfterSeconds) implements Admission {
        /** Malformed secret (400), no open window (403), another of the tenant's handshakes at the database now (429). */
        public enum Why { MALFORMED, NO_WINDOW, RATE }
    }

    /**
     * The decision for a provider that requires answers without a body (Xero, {@link Providers#answersWithoutBody}):
     * a buffered or duplicate event is answered 200 and a refused signature 401, with no body; other answers as usual.
     */
    public record Bodiless(Admission admission) implements Admission {
    }

    private final TenantActors actors;
    private final UsageCounters usage;
    private final String[] forwardHeaders;
    private final VerificationBudget budget;
    private final VerificationPool pool;
    private final IngressListener listener;
    private final int offloadBytes;
    private final SecretHandshakes secretHandshakes;

    public IngestService(TenantActors actors, IngressConfig config, UsageCounters usage, VerificationPool pool,
            VerificationBudget budget, IngressListener listener, SecretHandshakes secretHandshakes) {
        this.actors = actors;
        this.secretHandshakes = secretHandshakes;
        this.listener = listener;
        this.usage = usage;
        this.pool = pool;
        this.budget = budget;
        this.offloadBytes = config.verification().offloadBytes();
        this.forwardHeaders = config.forwardHeaders().stream()
                .map(h -> h.strip().toLowerCase(Locale.ROOT))
                .filter(h -> !h.isEmpty() && !carriesCredentials(h))
                .distinct()
                .toArray(String[]::new);
    }

    /** One request's way from the gate to the actor: {@code headers} looks a request header up by name. */
    public CompletionStage<Admission> admit(Tenant tenant, Function<String, String> headers, byte[] body,
            long receivedAt) {
        return admit(tenant, headers, body, receivedAt, null, body.length);
    }

    /**
     * {@link #admit(Tenant, Function, byte[], long)} for a body the gate may have checked off the heap
     * ({@code IngressGate}, {@code verify.BodyCheck}): {@code checked} is {@code NONE} when its signature verified
     * there (it is not MACed again), why it failed (its bytes were not kept, {@code checkedBytes} says how many the
     * MAC read), or null when it was not checked (then it is verified here as every body is).
     */
    public CompletionStage<Admission> admit(Tenant tenant, Function<String, String> headers, byte[] body,
            long receivedAt, VerificationFailure checked, int checkedBytes) {
        CompletionStage<Admission> decided = decide(tenant, headers, body, receivedAt, checked, checkedBytes);
        return Providers.answersWithoutBody(tenant.provider()) ? decided.thenApply(Bodiless::new) : decided;
    }

    private CompletionStage<Admission> decide(Tenant tenant, Function<String, String> headers, byte[] body,
            long receivedAt, VerificationFailure checked, int checkedBytes) {
        // Usage: in-memory adders only (flushed to PostgreSQL on a schedule), never I/O per event.
        UsageCounters.Tally tally = usage.of(tenant.id());
        tally.increment(UsageMetric.RECEIVED);
        SignatureVerifier verifier = tenant.verifier();
        AsanaHandshake secretHandshake = Providers.secretHandshake(tenant.provider());
        String offered = secretHandshake == null ? null : secretHandshake.offered(headers);
        if (offered != null) {
            // Unsigned: taken only inside the operator's window (SecretHandshakes), never verified as an event.
            return secretHandshakes.offer(tenant, offered);
        }
        if (verifier == null) {
            // Failure policy: fail closed. A tenant whose scheme this build does not know (or whose settings make
            // no scheme) accepts nothing.
            budget.failed(tenant.id());
            return done(new Unauthorized(VerificationFailure.BAD_SIGNATURE));
        }
        if (checked == VerificationFailure.NONE) {
            // Verified off the heap: not MACed again; a large body's dedupe key is still computed off the loop.
            return body.length < offloadBytes
                    ? verified(tenant, headers, body, receivedAt, verifier, new Checked(checked, null, body.length), tally)
                    : offloaded(tenant, headers, body, receivedAt, verifier, true, tally);
        }
        if (checked != null) {
            // Checked off the heap and failed: counted and answered as a failed MAC here would be, with no second
            // MAC (the bytes are gone).
            return verified(tenant, headers, body, receivedAt, verifier, new Checked(checked, null, checkedBytes), tally);
        }
        if (body.length < offloadBytes && !verifier.costly(tenant.secrets())) {
            // Small: the MACs cost less than a hop to a worker thread. A public-key signature never does, whatever
            // the body's size: it goes to the pool, within the tenant's share of it, like a large body.
            VerificationFailure failure = verifier.verify(headers, body, tenant.secrets(), receivedAt);
            return verified(tenant, headers, body, receivedAt, verifier, new Checked(failure, null, body.length), tally);
        }
        return offloaded(tenant, headers, body, receivedAt, verifier, false, tally);
    }

    /**
     * A large body, or a costly scheme: verified on the pool, within the tenant's share of it; one the gate verified
     * already ({@code verifiedAlready}) has only its dedupe key computed there.
     */
    private CompletionStage<Admission> offloaded(Tenant tenant, Function<String, String> headers, byte[] body,
            long receivedAt, SignatureVerifier verifier, boolean verifiedAlready,
            UsageCounters.Tally tally) {
        VerificationBudget.Permit permit = budget.permit(tenant.id());
        CompletionStage<Checked> offloaded = permit == null ? null
                : pool.submit(tenant.id(), () -> verifiedAlready ? keyOffLoop(verifier, headers, body, tenant)
                        : verifyOffLoop(verifier, headers, body, tenant, receivedAt));
        if (offloaded == null) {
            // Failure policy: refuse with 503 (retry), before the MAC: this tenant holds its share of the pool, or it
            // is under a flood of bad signatures and its guarded slots are taken. A provider retries a 503.
            if (permit != null) {
                permit.release();
            }
            return done(new VerificationBusy());
        }
        if (!verifiedAlready) {
            listener.offloaded();
        }
        return offloaded.whenComplete((checked, error) -> permit.release())
                .thenCompose(checked -> verified(tenant, headers, body, receivedAt, verifier, checked, tally));
    }

    /**
     * A verification's outcome, with the dedupe key when it was computed beside it (a large body: off the loop), and
     * the bytes the MAC read (a failure's weight in the budget).
     */
    private record Checked(VerificationFailure failure, String key, int bytes) {
    }

    /**
     * The MACs and, for an authentic body, the dedupe key: both read the whole body (the key hashes it, or parses it
     * for a body id), so for a large one both run here, on the pool, never on the event loop.
     */
    private static Checked verifyOffLoop(SignatureVerifier verifier, Function<String, String> headers,
            byte[] body, Tenant tenant, long receivedAt) {
        VerificationFailure failure = verifier.verify(headers, body, tenant.secrets(), receivedAt);
        LOG.debugf("Verified %d bytes for tenant %s on %s", body.length, tenant.id(), Thread.currentThread().getName());
        return new Checked(failure, failure == VerificationFailure.NONE ? key(verifier, headers, body) : null,
                body.length);
    }

    /** The dedupe key of a body the gate verified already (no MAC again). */
    private static Checked keyOffLoop(SignatureVerifier verifier, Function<String, String> headers, byte[] body,
            Tenant tenant) {
        String key = key(verifier, headers, body);
        LOG.debugf("Keyed %d verified bytes for tenant %s on %s", body.length, tenant.id(),
                Thread.currentThread().getName());
        return new Checked(VerificationFailure.NONE, key, body.length);
    }

    private static String key(SignatureVerifier verifier, Function<String, String> headers, byte[] body) {
        String providerId = verifier.dedupeId(headers, body);
        return dedupeKey(providerId, providerId != null && verifier.signsDedupeId(headers, body), body,
                verifier.volatileFields());
    }

    private CompletionStage<Admission> verified(Tenant tenant, Function<String, String> headers, byte[] body,
            long receivedAt, SignatureVerifier verifier, Checked checked, UsageCounters.Tally tally) {
        VerificationFailure failure = checked.failure();
        if (failure != VerificationFailure.NONE) {
            tally.increment(UsageMetric.REJECTED_SIGNATURE);
            // Weighed by its bytes only when a MAC ran over them and did not match: a signature the headers refused
            // (missing, malformed, stale, no secret) cost no MAC, whatever the body's size, and counts once.
            // One MAC per active secret ran over them: a tenant mid-rotation costs its forgers' bodies twice the work.
            budget.failed(tenant.id(), failure == VerificationFailure.BAD_SIGNATURE
                    ? (long) checked.bytes() * Math.max(1, tenant.secrets().size()) : 0);
            return done(new Unauthorized(failure));
        }
        HandshakeAnswer handshake = verifier.handshake(headers, body, tenant.secrets(), receivedAt);
        if (handshake != null) {
            return done(new Handshake(handshake));
        }
        String key = checked.key() != null ? checked.key() : key(verifier, headers, body);
        IncomingEvent event = new IncomingEvent(tenant.id(), key, body, contentType(headers),
                forwardedHeaders(headers), receivedAt);
        return actors.ingest(tenant, event).thenApply(result -> {
            count(tally, result, body.length);
            return new Decided(result);
        });
    }

    private static void count(UsageCounters.Tally tally, IngestResult result, int bytes) {
        switch (result.kind()) {
            case BUFFERED, PACED -> {
                tally.increment(UsageMetric.ACCEPTED);
                tally.add(UsageMetric.BYTES_ACCEPTED, bytes);
            }
            case DEDUPLICATED -> tally.increment(UsageMetric.DEDUPLICATED);
            case RATE_LIMITED -> tally.increment(UsageMetric.RATE_LIMITED);
            default -> {
                // 503, 422, 429 queue_quota: not stored, not billed beyond "received"
            }
        }
    }

    /**
     * The provider's id, else the SHA-256 of the body: never random, or every retry would look new. An id that is too
     * long, or that PostgreSQL text cannot hold exactly (a U+0000 or an unpaired surrogate, which a JSON body's
     * {@code "id": "evt_\u0000"} can carry), is replaced by {@code sha256:<hex>} of its bytes: the same id always
     * gives the same key (dedupe still works), different ids give different keys, and no id can fail the group
     * commit it shares with other tenants' events. (Ids taken from headers never need it: the HTTP server refuses a
     * control character in a header with 400, and reads every other byte as one ISO-8859-1 character.)
     *
     * <p>An id the signature does not cover ({@code signed} false: GitHub's {@code X-GitHub-Delivery}, the generic
     * {@code X-Event-ID}) is bound to the body: {@code <id>:<first 32 hex digits of sha256(body)>}. A captured request
     * re-sent with a guessed future id then gets a key of its own (its body is the old one), so it can neither make
     * the genuine event a duplicate nor share its key at the origin. A provider's retry repeats id and body, so it
     * still deduplicates. 128 bits of the hash are enough: the sender who wants the genuine key would need a body
     * the provider signed whose hash begins the same.
     *
     * <p>{@code volatileFields} are the body fields a provider's own retry changes (its signed send time): both hashes
     * leave their values out ({@link EventIds#bodyDigest}), so a retry signed anew is still a duplicate. A forger
     * gains nothing: the rest of the body is bound as sent, and a field it would change must still be signed.
     */
    static String dedupeKey(String providerId, boolean signed, byte[] body, List<String> volatileFields) {
        if (providerId == null) {
            return HexFormat.of().formatHex(EventIds.bodyDigest(body, volatileFields));
        }
        String id = EventIds.storable(providerId);
        return signed ? id : EventIds.bind(id, body, volatileFields);
    }

    /** {@link #dedupeKey(String, boolean, byte[], List)} for a provider whose retries repeat the body. */
    static String dedupeKey(String providerId, boolean signed, byte[] body) {
        return dedupeKey(providerId, signed, body, List.of());
    }

    private static String contentType(Function<String, String> headers) {
        String type = headers.apply(HttpHeaders.CONTENT_TYPE);
        return type == null || type.isBlank() ? DEFAULT_CONTENT_TYPE : type;
    }

    private String forwardedHeaders(Function<String, String> headers) {
        JsonObject kept = new JsonObject();
        for (String name : forwardHeaders) {
            String value = headers.apply(name);
            if (value != null) {
                kept.put(name, value);
            }
        }
        return kept.encode();
    }

    static boolean carriesCredentials(String lowerCaseName) {
        for (String marker : new String[] { "signature", "authorization", "token", "secret", "hmac", "cookie", "api-key" }) {
            if (lowerCaseName.contains(marker)) {
                return true;
            }
        }
        return false;
    }

    private static CompletionStage<Admission> done(Admission admission) {
        return CompletableFuture.completedFuture(admission);
    }
}
