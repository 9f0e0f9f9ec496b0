package io.webhookbuffer.ingress;

import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HEAD;
import jakarta.ws.rs.OPTIONS;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;

import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.RestResponse;

import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import io.webhookbuffer.actor.ActorConfig;
import io.webhookbuffer.actor.TenantActors;
import io.webhookbuffer.common.EventIds;
import io.webhookbuffer.common.Hex;
import io.webhookbuffer.common.Hmac;
import io.webhookbuffer.common.Utf8;
import io.webhookbuffer.queue.IncomingEvent;
import io.webhookbuffer.tenant.Tenant;
import io.webhookbuffer.usage.UsageCounters;
import io.webhookbuffer.usage.UsageMetric;
import io.webhookbuffer.verify.HandshakeAnswer;
import io.webhookbuffer.verify.SignatureVerifier;
import io.webhookbuffer.verify.VerificationFailure;

/**
 * {@code POST /webhook/{tenantId}}. Answers 202 only after the event is committed; see README "Ingest answers" for
 * what a sender should do with each answer. Non-blocking: the method returns at once and the answer is written
 * when the tenant's actor decides (after the group commit, for a new event).
 */
@Path("/webhook/{tenantId}")
@Produces(MediaType.APPLICATION_JSON)
public class WebhookResource {

    private static final Logger LOG = Logger.getLogger(WebhookResource.class);

    /** Event ids longer than this are replaced by their SHA-256 (stable, so dedupe still works): {@link #dedupeKey}. */
    static final int MAX_EVENT_ID_LENGTH = 200;
    private static final String DEFAULT_CONTENT_TYPE = "application/octet-stream";

    private final TenantActors actors;
    private final UsageCounters usage;
    private final long unavailableRetryAfter;
    private final String[] forwardHeaders;
    private final ReceiveClock clock;
    private final IngressListener listener;
    private final VerificationBudget budget;
    private final VerificationPool pool;
    private final int offloadBytes;

    public WebhookResource(TenantActors actors, IngressConfig config, ActorConfig actorConfig, ReceiveClock clock,
            UsageCounters usage, IngressListener listener, VerificationPool pool, VerificationBudget budget) {
        this.clock = clock;
        this.pool = pool;
        this.offloadBytes = config.verification().offloadBytes();
        this.budget = budget;
        this.usage = usage;
        this.listener = listener;
        this.actors = actors;
        this.unavailableRetryAfter = actorConfig.unavailableRetryAfterSeconds();
        this.forwardHeaders = config.forwardHeaders().stream()
                .map(h -> h.strip().toLowerCase(Locale.ROOT))
                .filter(h -> !h.isEmpty() && !carriesCredentials(h))
                .distinct()
                .toArray(String[]::new);
    }

    /** The tenant and the body come from {@link IngressGate}, which read the body within the tenant's limits. */
    @POST
    public Uni<RestResponse<IngressReply>> ingest(HttpServerRequest request, RoutingContext routing) {
        long started = System.nanoTime();
        IngressGate.Admitted admitted = IngressGate.admitted(routing);
        if (admitted == null) {
            // Only the gate reads ingest bodies; a request it did not admit has none to offer.
            return Uni.createFrom().item(observed(IngressResponses.notFound(), started));
        }
        long receivedAt = clock.millis();
        return Uni.createFrom().completionStage(() -> admit(admitted.tenant(), request, admitted.body(), receivedAt))
                .onFailure().recoverWithItem(failure -> IngressResponses.unavailable(unavailableRetryAfter))
                .map(response -> observed(response, started));
    }

    private RestResponse<IngressReply> observed(RestResponse<IngressReply> response, long started) {
        IngestOutcome outcome = IngestOutcome.of(response.getStatus(), response.getEntity());
        if (outcome != null) {
            listener.answered(outcome, System.nanoTime() - started);
        }
        return response;
    }

    private CompletionStage<RestResponse<IngressReply>> admit(Tenant tenant, HttpServerRequest request, byte[] body,
            long receivedAt) {
        // Usage: in-memory adders only (flushed to PostgreSQL on a schedule), never I/O per event.
        UsageCounters.Tally tally = usage.of(tenant.id());
        tally.increment(UsageMetric.RECEIVED);
        SignatureVerifier verifier = tenant.verifier();
        String address = budget.client(request.remoteAddress());
        long refusedFor = budget.addressRetryAfter(tenant.id(), address);
        if (refusedFor > 0) {
            // This address has had its share of 401s from this tenant in the window: refused without a MAC.
            return done(IngressResponses.tooManyFailures(refusedFor));
        }
        if (verifier == null) {
            // Failure policy: fail closed. A tenant whose scheme this build does not know (or whose settings make
            // no scheme) accepts nothing.
            budget.failed(tenant.id(), address);
            return done(IngressResponses.unauthorized(VerificationFailure.BAD_SIGNATURE));
        }
        if (body.length < offloadBytes) {
            // Small: the MACs cost less than a hop to a worker thread.
            VerificationFailure failure = verifier.verify(request::getHeader, body, tenant.secrets(), receivedAt);
            return verified(tenant, request, body, receivedAt, verifier, failure, address, tally);
        }
        VerificationBudget.Permit permit = budget.permit(tenant.id());
        CompletionStage<VerificationFailure> offloaded = permit == null ? null
                : pool.submit(() -> verifyOffLoop(verifier, request, body, tenant, receivedAt));
        if (offloaded == null) {
            // Failure policy: refuse with 503 (retry), before the MAC: the pool is full, or this tenant is under a
            // flood of bad signatures and its share of the pool is taken. A provider retries a 503.
            if (permit != null) {
                permit.release();
            }
            return done(IngressResponses.verificationBusy());
        }
        return offloaded.whenComplete((failure, error) -> permit.release())
                .thenCompose(failure -> verified(tenant, request, body, receivedAt, verifier, failure, address, tally));
    }

    private static VerificationFailure verifyOffLoop(SignatureVerifier verifier, HttpServerRequest request, byte[] body,
            Tenant tenant, long receivedAt) {
        VerificationFailure failure = verifier.verify(request::getHeader, body, tenant.secrets(), receivedAt);
        LOG.debugf("Verified %d bytes for tenant %s on %s", body.length, tenant.id(), Thread.currentThread().getName());
        return failure;
    }

    private RestResponse<IngressReply> refused(Tenant tenant, String address, UsageCounters.Tally tally,
            VerificationFailure failure) {
        tally.increment(UsageMetric.REJECTED_SIGNATURE);
        budget.failed(tenant.id(), address);
        return IngressResponses.unauthorized(failure);
    }

    private CompletionStage<RestResponse<IngressReply>> verified(Tenant tenant, HttpServerRequest request, byte[] body,
            long receivedAt, SignatureVerifier verifier, VerificationFailure failure, String address,
            UsageCounters.Tally tally) {
        if (failure != VerificationFailure.NONE) {
            return done(refused(tenant, address, tally, failure));
        }
        HandshakeAnswer handshake = verifier.handshake(request::getHeader, body, tenant.secrets(), receivedAt);
        if (handshake != null) {
            return done(IngressResponses.handshake(handshake));
        }
        String providerId = verifier.dedupeId(request::getHeader, body);
        String key = dedupeKey(providerId, providerId != null && verifier.signsDedupeId(request::getHeader, body), body);
        IncomingEvent event = new IncomingEvent(tenant.id(), key, body, contentType(request), forwardedHeaders(request),
                receivedAt);
        return actors.ingest(tenant, event).thenApply(result -> {
            switch (result.kind()) {
                case BUFFERED -> {
                    tally.increment(UsageMetric.ACCEPTED);
                    tally.add(UsageMetric.BYTES_ACCEPTED, body.length);
                }
                case DEDUPLICATED -> tally.increment(UsageMetric.DEDUPLICATED);
                case RATE_LIMITED -> tally.increment(UsageMetric.RATE_LIMITED);
                default -> {
                    // 503, 422: not stored, not billed beyond "received"
                }
            }
            return IngressResponses.of(result);
        });
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
     */
    static String dedupeKey(String providerId, boolean signed, byte[] body) {
        if (providerId == null) {
            return Hex.encode(Hmac.sha256(body));
        }
        String id = providerId.length() > MAX_EVENT_ID_LENGTH || !Utf8.storableAsText(providerId)
                // For a valid string these are its UTF-8 bytes: the keys of long ids stored before are unchanged.
                ? "sha256:" + Hex.encode(Hmac.sha256(Utf8.losslessBytes(providerId)))
                : providerId;
        return signed ? id : EventIds.bind(id, body);
    }

    private static String contentType(HttpServerRequest request) {
        String type = request.getHeader(HttpHeaders.CONTENT_TYPE);
        return type == null || type.isBlank() ? DEFAULT_CONTENT_TYPE : type;
    }

    private String forwardedHeaders(HttpServerRequest request) {
        JsonObject kept = new JsonObject();
        for (String name : forwardHeaders) {
            String value = request.getHeader(name);
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

    private static CompletionStage<RestResponse<IngressReply>> done(RestResponse<IngressReply> response) {
        return CompletableFuture.completedFuture(response);
    }

    // Every other method on the ingest path: 405 with Allow: POST (JAX-RS would answer without the header).

    @GET
    public RestResponse<IngressReply> get() {
        return IngressResponses.methodNotAllowed();
    }

    @PUT
    public RestResponse<IngressReply> put() {
        return IngressResponses.methodNotAllowed();
    }

    @DELETE
    public RestResponse<IngressReply> delete() {
        return IngressResponses.methodNotAllowed();
    }

    @PATCH
    public RestResponse<IngressReply> patch() {
        return IngressResponses.methodNotAllowed();
    }

    @HEAD
    public RestResponse<IngressReply> head() {
        return IngressResponses.methodNotAllowed();
    }

    @OPTIONS
    public RestResponse<IngressReply> options() {
        return IngressResponses.methodNotAllowed();
    }
}
