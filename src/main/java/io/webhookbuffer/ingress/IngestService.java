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
import io.webhookbuffer.trace.IngestTrace;
import io.webhookbuffer.usage.UsageCounters;
import io.webhookbuffer.usage.UsageMetric;
import io.webhookbuffer.verify.AsanaHandshake;
import io.webhookbuffer.verify.HandshakeAnswer;
import io.webhookbuffer.verify.Providers;
import io.webhookbuffer.verify.SignatureVerifier;
import io.webhookbuffer.verify.VerificationFailure;

/**
 * The decision about one event whose tenant and body {@link IngressGate} has admitted, and the one place its
 * signature is checked: the usage counts, a provider's handshake, the MAC over the raw bytes (on the event loop for a
 * small body; on the verification pool for a large body or a costly scheme, within the tenant's share of it, the
 * dedupe key computed there beside it), the failed-verification budget, the dedupe key, and the tenant's actor. Its
 * answer is an {@link IngestAnswer}; {@link IngestRoute} writes it. Runs on the event loop and never blocks.
 */
@ApplicationScoped
public class IngestService {

    private static final Logger LOG = Logger.getLogger(IngestService.class);

    /** Event ids longer than this are replaced by their SHA-256 (stable, so dedupe still works): {@link #dedupeKey}. */
    static final int MAX_EVENT_ID_LENGTH = EventIds.MAX_LENGTH;
    private static final String DEFAULT_CONTENT_TYPE = "application/octet-stream";

    private final TenantActors actors;
    private final String[] forwardHeaders;
    private final VerificationBudget budget;
    private final VerificationPool pool;
    private final int offloadBytes;
    private final SecretHandshakes secretHandshakes;

    public IngestService(TenantActors actors, IngressConfig config, VerificationPool pool, VerificationBudget budget,
            SecretHandshakes secretHandshakes) {
        this.actors = actors;
        this.secretHandshakes = secretHandshakes;
        this.pool = pool;
        this.budget = budget;
        this.offloadBytes = config.verification().offloadBytes();
        this.forwardHeaders = config.forwardHeaders().stream()
                .map(h -> h.strip().toLowerCase(Locale.ROOT))
                .filter(h -> !h.isEmpty() && !carriesCredentials(h))
                .distinct()
                .toArray(String[]::new);
    }

    /**
     * One request's way from the gate to the actor: {@code headers} looks a request header up by name. Xero's answers
     * have no body ({@link Providers#answersWithoutBody}, {@link IngestAnswer#bodiless}).
     */
    public CompletionStage<IngestAnswer> admit(IngressGate.Admitted admitted, Function<String, String> headers,
            long receivedAt) {
        CompletionStage<IngestAnswer> decided = decide(admitted, headers, receivedAt);
        return Providers.answersWithoutBody(admitted.tenant().provider()) ? decided.thenApply(IngestAnswer::bodiless)
                : decided;
    }

    /** Ends the ingest span with the answer the request gets (a failed decision is answered 503). */
    private static void ended(IngestTrace trace, IngestAnswer decided) {
        try {
            IngestAnswer answer = decided != null ? decided : IngestAnswer.unavailable(0);
            trace.end(answer.status(), answer.outcome() == null ? null : answer.outcome().label(),
                    answer.reply() == null ? null : answer.reply().eventId());
        } catch (RuntimeException e) {
            // Failure policy: a span is never worth an answer; the request is answered as if it were not traced.
            LOG.debugf("ingest span not ended: %s", e.toString());
        }
    }

    private CompletionStage<IngestAnswer> decide(IngressGate.Admitted admitted, Function<String, String> headers,
            long receivedAt) {
        Tenant tenant = admitted.tenant();
        // Usage: in-memory adders only (flushed to PostgreSQL on a schedule), never I/O per event.
        UsageCounters.Tally tally = admitted.sinks().usage().of(tenant.id());
        tally.increment(UsageMetric.RECEIVED);
        SignatureVerifier verifier = tenant.verifier();
        AsanaHandshake secretHandshake = Providers.secretHandshake(tenant.provider());
        String offered = secretHandshake == null ? null : secretHandshake.offered(headers);
        if (offered != null || verifier == null) {
            admitted.letGo();
        }
        if (offered != null) {
            // Unsigned: taken only inside the operator's window (SecretHandshakes), never verified as an event.
            return secretHandshakes.offer(tenant, offered);
        }
        if (verifier == null) {
            // Failure policy: fail closed. A tenant whose scheme this build does not know (or whose settings make
            // no scheme) accepts nothing.
            budget.failed(tenant.id());
            return done(IngestAnswer.unauthorized(VerificationFailure.BAD_SIGNATURE));
        }
        CompletionStage<Checked> checked = admitted.held() != null ? verifyHeld(admitted, headers, verifier)
                : verify(admitted, headers, receivedAt, verifier);
        if (checked == null) {
            // Failure policy: refuse with 503 (retry), before the MAC: this tenant holds its share of the pool, or it
            // is under a flood of bad signatures and its guarded slots are taken. A provider retries a 503.
            return done(IngestAnswer.verificationBusy());
        }
        return checked.thenCompose(c -> verified(admitted, headers, receivedAt, verifier, c, tally));
    }

    /**
     * A body on the heap: a small one verified here, on the event loop (its MACs cost less than a hop to a worker
     * thread); a large one, or any under a costly scheme (a public-key signature, whatever the body's size), on the
     * pool within the tenant's share of it, its dedupe key computed there too. Null when there is no room for it.
     */
    private CompletionStage<Checked> verify(IngressGate.Admitted admitted, Function<String, String> headers,
            long receivedAt, SignatureVerifier verifier) {
        Tenant tenant = admitted.tenant();
        byte[] body = admitted.body();
        if (body.length < offloadBytes && !verifier.costly(tenant.secrets())) {
            return done(new Checked(verifier.verify(headers, body, tenant.secrets(), receivedAt), null, body, body.length));
        }
        VerificationBudget.Permit permit = budget.permit(tenant.id());
        CompletionStage<Checked> offloaded = permit == null ? null
                : pool.submit(tenant.id(), () -> verifyOffLoop(verifier, headers, body, tenant, receivedAt));
        if (offloaded == null) {
            if (permit != null) {
                permit.release();
            }
            return null;
        }
        offloaded(admitted);
        return offloaded.whenComplete((checked, error) -> permit.release());
    }

    /**
     * A large body the gate held off the heap ({@link CheckedBody}) with its scheme's check, which read it as it
     * arrived: the MAC is finished on the pool (the gate took the tenant's slot for it), and for an authentic body its
     * copy on the heap and its dedupe key made there beside it; a body its headers refused already costs no MAC. The
     * bytes off the heap are let go once it returns. Null when there is no room on the pool.
     */
    private CompletionStage<Checked> verifyHeld(IngressGate.Admitted admitted, Function<String, String> headers,
            SignatureVerifier verifier) {
        CheckedBody held = admitted.held();
        Tenant tenant = admitted.tenant();
        if (!held.needsMac()) {
            CheckedBody.Verdict verdict = held.verify();
            held.letGo();
            return done(new Checked(verdict.checked(), null, verdict.body(), verdict.length()));
        }
        CompletionStage<Checked> checked = held.verifyOn(pool, tenant.id(), verdict -> keyed(verdict, verifier,
                headers, tenant));
        if (checked == null) {
            held.letGo();
            return null;
        }
        offloaded(admitted);
        return checked.whenComplete((c, error) -> {
            held.verified();
            held.letGo();
        });
    }

    private static void offloaded(IngressGate.Admitted admitted) {
        admitted.sinks().metrics().offloaded();
    }

    /**
     * A verification's outcome; the body on the heap (empty when a failed one was never copied there), with its
     * dedupe key when it was computed beside it (a large body: off the loop), and the bytes the MAC read (a failure's
     * weight in the budget).
     */
    private record Checked(VerificationFailure failure, String key, byte[] body, int bytes) {
    }

    /**
     * The MACs and, for an authentic body, the dedupe key: both read the whole body (the key hashes it, or parses it
     * for a body id), so for a large one both run here, on the pool, never on the event loop.
     */
    private static Checked verifyOffLoop(SignatureVerifier verifier, Function<String, String> headers,
            byte[] body, Tenant tenant, long receivedAt) {
        VerificationFailure failure = verifier.verify(headers, body, tenant.secrets(), receivedAt);
        LOG.debugf("Verified %d bytes for tenant %s on %s", body.length, tenant.id(), Thread.currentThread().getName());
        return new Checked(failure, failure == VerificationFailure.NONE ? key(verifier, headers, body) : null, body,
                body.length);
    }

    /** On the pool, after the MAC of a body held off the heap: the dedupe key of an authentic one. */
    private static Checked keyed(CheckedBody.Verdict verdict, SignatureVerifier verifier,
            Function<String, String> headers, Tenant tenant) {
        if (verdict.checked() != VerificationFailure.NONE) {
            return new Checked(verdict.checked(), null, verdict.body(), verdict.length());
        }
        String key = key(verifier, headers, verdict.body());
        LOG.debugf("Keyed %d verified bytes for tenant %s on %s", verdict.length(), tenant.id(),
                Thread.currentThread().getName());
        return new Checked(VerificationFailure.NONE, key, verdict.body(), verdict.length());
    }

    private static String key(SignatureVerifier verifier, Function<String, String> headers, byte[] body) {
        String providerId = verifier.dedupeId(headers, body);
        return dedupeKey(providerId, providerId != null && verifier.signsDedupeId(headers, body), body,
                verifier.volatileFields());
    }

    private CompletionStage<IngestAnswer> verified(IngressGate.Admitted admitted, Function<String, String> headers,
            long receivedAt, SignatureVerifier verifier, Checked checked, UsageCounters.Tally tally) {
        Tenant tenant = admitted.tenant();
        VerificationFailure failure = checked.failure();
        if (failure != VerificationFailure.NONE) {
            tally.increment(UsageMetric.REJECTED_SIGNATURE);
            // Weighed by its bytes only when a MAC ran over them and did not match: a signature the headers refused
            // (missing, malformed, stale, no secret) cost no MAC, whatever the body's size, and counts once.
            // One MAC per active secret ran over them: a tenant mid-rotation costs its forgers' bodies twice the work.
            budget.failed(tenant.id(), failure == VerificationFailure.BAD_SIGNATURE
                    ? (long) checked.bytes() * Math.max(1, tenant.secrets().size()) : 0);
            return done(IngestAnswer.unauthorized(failure));
        }
        // The ingest span (docs/operations.md "Tracing") begins only here, once the sender has proved itself: a
        // forged, unsigned or otherwise refused request costs no span and no place in the export queue every tenant
        // shares (its refusal is in the metrics and the refusal log). It is dated from receivedAt, so it covers the
        // verification. In the tenant's sinks, like every effect of the request.
        IngestTrace trace = admitted.sinks().traces().ingest(tenant.id(), tenant.provider(), tenant.trustTraceContext(),
                headers, receivedAt);
        if (trace == IngestTrace.OFF) {
            return authentic(admitted, headers, receivedAt, verifier, checked, tally, null);
        }
        trace.logContext();
        CompletionStage<IngestAnswer> decided;
        try {
            decided = authentic(admitted, headers, receivedAt, verifier, checked, tally, trace.traceParent());
        } catch (RuntimeException e) {
            ended(trace, null);
            throw e;
        }
        return decided.whenComplete((answer, error) -> ended(trace, answer));
    }

    /**
     * An authenticated request: a provider's handshake answered, or its event handed to the tenant's actor with the
     * W3C context of its ingest span ({@code traceParent}, null when it has none), stored with it.
     */
    private CompletionStage<IngestAnswer> authentic(IngressGate.Admitted admitted, Function<String, String> headers,
            long receivedAt, SignatureVerifier verifier, Checked checked, UsageCounters.Tally tally, String traceParent) {
        Tenant tenant = admitted.tenant();
        byte[] body = checked.body();
        HandshakeAnswer handshake = verifier.handshake(headers, body, tenant.secrets(), receivedAt);
        if (handshake != null) {
            return done(IngestAnswer.handshake(handshake));
        }
        String key = checked.key() != null ? checked.key() : key(verifier, headers, body);
        IncomingEvent event = new IncomingEvent(tenant.id(), key, body, contentType(headers),
                forwardedHeaders(headers), receivedAt, traceParent);
        return actors.ingest(tenant, event, admitted.sinks().storage()).thenApply(result -> {
            count(tally, result, body.length);
            return IngestAnswer.of(result);
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

    private static <T> CompletionStage<T> done(T value) {
        return CompletableFuture.completedFuture(value);
    }
}
