package io.webhookbuffer.ingress;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;

import jakarta.enterprise.context.ApplicationScoped;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.RoutingContext;
import io.webhookbuffer.actor.IngestResult;
import io.webhookbuffer.tenant.Tenant;
import io.webhookbuffer.tenant.TenantDirectory;
import io.webhookbuffer.verify.Providers;
import io.webhookbuffer.verify.QueryHandshake;

/**
 * {@code GET /webhook/{tenantId}?...}: a provider's endpoint check by GET (Meta, X, Dropbox: {@link QueryHandshake}),
 * answered from the ingest path's Vert.x route ({@link IngressGate}) and never buffered. What an unauthenticated
 * sender can make it cost is bounded: a GET without a query string, or with a body, is 405 without a lookup; a query longer
 * than {@link QueryHandshake#MAX_QUERY_LENGTH} is a 400 without a lookup; otherwise one tenant lookup (the cached one
 * every POST makes; an id that is no tenant is known from memory), then 404 for an unknown or inactive tenant, 405
 * ({@code Allow: POST}) for a provider without a GET check; then the answer (at most one short HMAC per active
 * secret, less than the request's own HTTP handling, so no rate guards it: a check anyone can send, such as X's CRC,
 * can never be refused for the others). A check that fails is 400 for malformed parameters or 401 for a wrong verify
 * token, counted against the tenant like a bad signature and kept in the tenant's refusals. No database query, no
 * Redis call. Non-blocking.
 */
@ApplicationScoped
public class QueryHandshakes {

    private static final int OK = 200;

    private final TenantDirectory tenants;
    private final VerificationBudget budget;
    private final AnswerWriter writer;
    private final IngestRoute route;
    private final IngressListener listener;
    private final long busyRetryAfter;
    private final long unavailableRetryAfter;

    public QueryHandshakes(TenantDirectory tenants, VerificationBudget budget, AnswerWriter writer, IngestRoute route,
            IngressListener listener) {
        this.tenants = tenants;
        this.budget = budget;
        this.writer = writer;
        this.route = route;
        this.listener = listener;
        this.busyRetryAfter = IngestResult.BUSY_RETRY_AFTER_SECONDS;
        this.unavailableRetryAfter = IngestResult.UNAVAILABLE_RETRY_AFTER_SECONDS;
    }

    /** Answers a GET on the ingest path that carries a check; false when it carries none (then it is a 405). */
    boolean handle(RoutingContext ctx) {
        HttpServerRequest request = ctx.request();
        String query = request.query();
        if (query == null || query.isEmpty() || hasBody(request)) {
            return false; // nothing to check, nothing looked up
        }
        long started = System.nanoTime();
        String tenantId = ctx.pathParam("tenantId");
        if (!Tenant.isValidId(tenantId)) {
            refuse(ctx, null, IngestAnswer.notFound(), started);
        } else if (query.length() > QueryHandshake.MAX_QUERY_LENGTH) {
            refuse(ctx, null, malformed(), started);
        } else {
            CompletableFuture<Tenant> lookup = tenants.find(tenantId).toCompletableFuture();
            IngressGate.whenLookedUp(lookup, () -> answer(ctx, lookup, query, started));
        }
        return true;
    }

    private void answer(RoutingContext ctx, CompletableFuture<Tenant> lookup, String query, long started) {
        IngestAnswer failed = IngressGate.lookupFailure(lookup, busyRetryAfter, unavailableRetryAfter);
        if (failed != null) {
            refuse(ctx, null, failed, started);
            return;
        }
        Tenant tenant = lookup.join();
        if (tenant == null || !tenant.active()) {
            refuse(ctx, tenant, IngestAnswer.notFound(), started);
            return;
        }
        QueryHandshake handshake = Providers.queryHandshake(tenant.provider());
        if (handshake == null) {
            route.methodNotAllowed(ctx);
        } else {
            answer(ctx, tenant, handshake, query, started);
        }
    }

    private void answer(RoutingContext ctx, Tenant tenant, QueryHandshake handshake, String query, long started) {
        // The answer first: it costs at most a few HMACs of 17 to 256 bytes, less than the request's own HTTP handling,
        // so no budget guards it, and a check that passes is never refused for what other requests did (X's CRC, or
        // Meta's own check from an address others made Meta send wrong tokens from). A failed check counts against
        // the tenant like a bad signature.
        QueryHandshake.Answer answer = handshake.answer(query, tenant.secrets());
        if (answer.failure() == null) {
            write(ctx.response(), answer);
            listener.answered(IngestOutcome.HANDSHAKE, System.nanoTime() - started);
            return;
        }
        budget.failed(tenant.id());
        refuse(ctx, tenant, IngestAnswer.queryHandshakeRefused(answer.failure() == QueryHandshake.Failure.MALFORMED,
                answer.failure().reason()), started);
    }

    private static IngestAnswer malformed() {
        return IngestAnswer.queryHandshakeRefused(true, QueryHandshake.Failure.MALFORMED.reason());
    }

    /** The check's answer, as a text the browser must not sniff and no cache may keep. */
    private static void write(HttpServerResponse response, QueryHandshake.Answer answer) {
        if (response.ended() || response.closed()) {
            return;
        }
        byte[] body = answer.body().getBytes(StandardCharsets.US_ASCII);
        response.setStatusCode(OK);
        response.putHeader(HttpHeaders.CONTENT_TYPE, answer.contentType());
        response.putHeader(AnswerWriter.NOSNIFF_HEADER, AnswerWriter.NOSNIFF);
        response.putHeader(HttpHeaders.CACHE_CONTROL, AnswerWriter.NO_STORE);
        response.end(Buffer.buffer(body));
    }

    private void refuse(RoutingContext ctx, Tenant tenant, IngestAnswer answer, long started) {
        writer.sendEarly(ctx, tenant, answer, started, 0, false);
    }

    /** A GET with a body is no provider's check (405). */
    private static boolean hasBody(HttpServerRequest request) {
        String length = request.getHeader(HttpHeaders.CONTENT_LENGTH);
        return request.getHeader(HttpHeaders.TRANSFER_ENCODING) != null
                || (length != null && !"0".equals(length.strip()));
    }
}
