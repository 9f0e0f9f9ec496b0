package io.webhookbuffer.ingress;

import org.jboss.resteasy.reactive.RestResponse;

import io.webhookbuffer.actor.IngestResult;
import io.webhookbuffer.verify.HandshakeAnswer;
import io.webhookbuffer.verify.VerificationFailure;

/** The ingest contract's answers, in one place. */
final class IngressResponses {

    /** RFC 9110 §15.5.21; Jakarta REST names no constant for it. */
    static final int UNPROCESSABLE_CONTENT = 422;

    private IngressResponses() {
    }

    /** The answer to what {@link IngestService} decided. */
    static RestResponse<IngressReply> of(IngestService.Admission admission) {
        if (admission instanceof IngestService.Decided decided) {
            return of(decided.result());
        }
        if (admission instanceof IngestService.Unauthorized unauthorized) {
            return unauthorized(unauthorized.failure());
        }
        if (admission instanceof IngestService.TooManyFailures refused) {
            return tooManyFailures(refused.retryAfterSeconds());
        }
        if (admission instanceof IngestService.Handshake handshake) {
            return handshake(handshake.answer());
        }
        if (admission instanceof IngestService.VerificationBusy) {
            return verificationBusy();
        }
        throw new IllegalArgumentException("no answer for " + admission);
    }

    static RestResponse<IngressReply> of(IngestResult result) {
        return switch (result.kind()) {
            case BUFFERED -> RestResponse.status(RestResponse.Status.ACCEPTED,
                    new IngressReply("buffered", result.eventId(), null));
            case DEDUPLICATED -> RestResponse.ok(new IngressReply("deduplicated", result.eventId(), null));
            case NOT_STORABLE -> RestResponse.ResponseBuilder.<IngressReply>create(UNPROCESSABLE_CONTENT)
                    .entity(new IngressReply("not_storable", result.eventId(), null)).build();
            case RATE_LIMITED -> RestResponse.ResponseBuilder
                    .create(RestResponse.Status.TOO_MANY_REQUESTS, new IngressReply("rate_limited", result.eventId(), null))
                    .header("Retry-After", Long.toString(result.retryAfterSeconds())).build();
            case UNAVAILABLE, OVERLOADED -> RestResponse.ResponseBuilder
                    .create(RestResponse.Status.SERVICE_UNAVAILABLE, new IngressReply("unavailable", result.eventId(),
                            result.kind() == IngestResult.Kind.OVERLOADED ? "tenant_overloaded" : "not_stored"))
                    .header("Retry-After", Long.toString(result.retryAfterSeconds())).build();
        };
    }

    static RestResponse<IngressReply> notFound() {
        return RestResponse.status(RestResponse.Status.NOT_FOUND, IngressReply.status("unknown_tenant"));
    }

    static RestResponse<IngressReply> tooLarge() {
        return RestResponse.status(RestResponse.Status.PAYLOAD_TOO_LARGE, IngressReply.status("payload_too_large"));
    }

    static RestResponse<IngressReply> unauthorized(VerificationFailure failure) {
        return RestResponse.status(RestResponse.Status.UNAUTHORIZED,
                new IngressReply("invalid_signature", null, failure.reason()));
    }

    /** A verified handshake (Slack url_verification, Zoom endpoint.url_validation): 200, nothing buffered. */
    static RestResponse<IngressReply> handshake(HandshakeAnswer answer) {
        return RestResponse.ok(new IngressReply(null, null, null, answer.challenge(), answer.plainToken(),
                answer.encryptedToken()));
    }

    static RestResponse<IngressReply> methodNotAllowed() {
        return RestResponse.ResponseBuilder
                .create(RestResponse.Status.METHOD_NOT_ALLOWED, IngressReply.status("method_not_allowed"))
                .header("Allow", "POST").build();
    }

    /** The tenant lookup (database) failed before the actor saw the event: nothing was stored. */
    static RestResponse<IngressReply> unavailable(long retryAfterSeconds) {
        return RestResponse.ResponseBuilder
                .create(RestResponse.Status.SERVICE_UNAVAILABLE, new IngressReply("unavailable", null, "not_stored"))
                .header("Retry-After", Long.toString(retryAfterSeconds)).build();
    }

    // Refusals at the edge (IngressGate), before the sender is authenticated.

    /**
     * The tenant is not cached and the budget for lookups ({@code buffer.tenants.miss-budget.*}, the origin
     * pull-through's bulkhead) is spent: the id was not looked up, so this is no 404. Nothing was stored.
     */
    static RestResponse<IngressReply> lookupBusy(long retryAfterSeconds) {
        return RestResponse.ResponseBuilder
                .create(RestResponse.Status.SERVICE_UNAVAILABLE, new IngressReply("unavailable", null, "lookup_busy"))
                .header("Retry-After", Long.toString(retryAfterSeconds)).build();
    }

    /** No {@code Host} line in an HTTP/1.1 request, an empty one, two of them, or one that is not a host[:port]. */
    static RestResponse<IngressReply> invalidHost() {
        return RestResponse.status(RestResponse.Status.BAD_REQUEST, new IngressReply("bad_request", null, "invalid_host"));
    }

    static RestResponse<IngressReply> tooManyHeaders() {
        return RestResponse.ResponseBuilder.<IngressReply>create(431).entity(IngressReply.status("too_many_headers"))
                .build();
    }

    /** The body did not arrive within {@code buffer.ingress.body-timeout}: nothing was stored. */
    static RestResponse<IngressReply> bodyTimeout() {
        return RestResponse.status(RestResponse.Status.REQUEST_TIMEOUT, IngressReply.status("request_timeout"));
    }

    /** The replica holds {@code buffer.ingress.max-in-flight-bytes} of bodies already: nothing was stored. */
    static RestResponse<IngressReply> busy(long retryAfterSeconds) {
        return RestResponse.ResponseBuilder
                .create(RestResponse.Status.SERVICE_UNAVAILABLE, new IngressReply("unavailable", null, "replica_busy"))
                .header("Retry-After", Long.toString(retryAfterSeconds)).build();
    }

    /** This client address earned {@code max-failures-per-address} 401s from the tenant in the window: no MAC. */
    static RestResponse<IngressReply> tooManyFailures(long retryAfterSeconds) {
        return RestResponse.ResponseBuilder
                .create(RestResponse.Status.TOO_MANY_REQUESTS, new IngressReply("rate_limited", null, "failed_verifications"))
                .header("Retry-After", Long.toString(retryAfterSeconds)).build();
    }

    /** No room on the verification pool (all tenants, or this tenant's share while it is flooded): no MAC. */
    static RestResponse<IngressReply> verificationBusy() {
        return RestResponse.ResponseBuilder
                .create(RestResponse.Status.SERVICE_UNAVAILABLE, new IngressReply("unavailable", null, "verification_busy"))
                .header("Retry-After", "1").build();
    }
}
