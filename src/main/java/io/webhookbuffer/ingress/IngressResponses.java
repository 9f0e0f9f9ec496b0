package io.webhookbuffer.ingress;

import io.webhookbuffer.actor.IngestResult;
import io.webhookbuffer.verify.HandshakeAnswer;
import io.webhookbuffer.verify.VerificationFailure;

/** The ingest contract's answers, in one place. */
final class IngressResponses {

    /** RFC 9110 §15.5.21; Jakarta REST names no constant for it. */
    static final int UNPROCESSABLE_CONTENT = 422;
    private static final int OK = 200;
    private static final int ACCEPTED = 202;
    private static final int BAD_REQUEST = 400;
    private static final int UNAUTHORIZED = 401;
    private static final int FORBIDDEN = 403;
    private static final int NOT_FOUND = 404;
    private static final int METHOD_NOT_ALLOWED = 405;
    private static final int REQUEST_TIMEOUT = 408;
    private static final int PAYLOAD_TOO_LARGE = 413;
    private static final int TOO_MANY_REQUESTS = 429;
    private static final int HEADER_FIELDS_TOO_LARGE = 431;
    private static final int SERVICE_UNAVAILABLE = 503;

    private IngressResponses() {
    }

    /** The answer to what {@link IngestService} decided. */
    static IngressAnswer of(IngestService.Admission admission) {
        if (admission instanceof IngestService.Decided decided) {
            return of(decided.result());
        }
        if (admission instanceof IngestService.Unauthorized unauthorized) {
            return unauthorized(unauthorized.failure());
        }
        if (admission instanceof IngestService.Handshake handshake) {
            return handshake(handshake.answer());
        }
        if (admission instanceof IngestService.VerificationBusy) {
            return verificationBusy();
        }
        if (admission instanceof IngestService.SecretStored stored) {
            return new IngressAnswer(OK, IngressReply.status(HANDSHAKE_ACCEPTED), stored.header(), stored.secret());
        }
        if (admission instanceof IngestService.HandshakeRefused refused) {
            return handshakeRefused(refused);
        }
        if (admission instanceof IngestService.Bodiless bodiless) {
            return bodiless(of(bodiless.admission()));
        }
        throw new IllegalArgumentException("no answer for " + admission);
    }

    /** The reason of the answer to an event whose tenant is at its queue quota (429 rate_limited). */
    static final String QUEUE_QUOTA = "queue_quota";

    /**
     * The reason of a 202 to an event over its tenant's rate limit, stored because its sender does not retry: the
     * limit paces its delivery (docs/providers.md, "What a sender does after a refusal").
     */
    static final String PACED = "paced";

    /** The status word of the answer to a secret handshake taken in its window (Asana). */
    static final String HANDSHAKE_ACCEPTED = "handshake_accepted";

    private static IngressAnswer handshakeRefused(IngestService.HandshakeRefused refused) {
        return switch (refused.why()) {
            case MALFORMED -> IngressAnswer.of(BAD_REQUEST,
                    new IngressReply("invalid_handshake", null, "malformed_handshake"));
            case NO_WINDOW -> IngressAnswer.of(FORBIDDEN, new IngressReply("handshake_refused", null,
                    "no_handshake_window"));
            case RATE -> IngressAnswer.retryAfter(TOO_MANY_REQUESTS,
                    new IngressReply("rate_limited", null, "handshake_rate"), refused.retryAfterSeconds());
        };
    }

    /**
     * Xero's answers: a stored event (202) or a duplicate is 200, a refused signature 401, each with no body (the
     * JSON reply is kept for the metrics, the request log and the refusals, and not written); other answers as usual.
     */
    static IngressAnswer bodiless(IngressAnswer answer) {
        int status = answer.status();
        if (answer.text() != null || (status != ACCEPTED && status != OK && status != UNAUTHORIZED)) {
            return answer;
        }
        return new IngressAnswer(status == ACCEPTED ? OK : status, answer.reply(), null, null, "");
    }

    static IngressAnswer of(IngestResult result) {
        return switch (result.kind()) {
            case BUFFERED -> IngressAnswer.of(ACCEPTED, new IngressReply("buffered", result.eventId(), null));
            case PACED -> IngressAnswer.of(ACCEPTED, new IngressReply("buffered", result.eventId(), PACED));
            case DEDUPLICATED -> IngressAnswer.of(OK, new IngressReply("deduplicated", result.eventId(), null));
            case NOT_STORABLE -> IngressAnswer.of(UNPROCESSABLE_CONTENT,
                    new IngressReply("not_storable", result.eventId(), null));
            case RATE_LIMITED -> IngressAnswer.retryAfter(TOO_MANY_REQUESTS,
                    new IngressReply("rate_limited", result.eventId(), null), result.retryAfterSeconds());
            case QUEUE_FULL -> IngressAnswer.retryAfter(TOO_MANY_REQUESTS,
                    new IngressReply("rate_limited", result.eventId(), QUEUE_QUOTA), result.retryAfterSeconds());
            case UNAVAILABLE, OVERLOADED -> IngressAnswer.retryAfter(SERVICE_UNAVAILABLE,
                    new IngressReply("unavailable", result.eventId(),
                            result.kind() == IngestResult.Kind.OVERLOADED ? "tenant_overloaded" : "not_stored"),
                    result.retryAfterSeconds());
        };
    }

    static IngressAnswer notFound() {
        return IngressAnswer.of(NOT_FOUND, IngressReply.status("unknown_tenant"));
    }

    static IngressAnswer tooLarge() {
        return IngressAnswer.of(PAYLOAD_TOO_LARGE, IngressReply.status("payload_too_large"));
    }

    static IngressAnswer unauthorized(VerificationFailure failure) {
        return IngressAnswer.of(UNAUTHORIZED, new IngressReply("invalid_signature", null, failure.reason()));
    }

    /**
     * A verified handshake (Slack url_verification, Zoom endpoint.url_validation, Discord PING, Twitch
     * webhook_callback_verification as text): 200, nothing buffered.
     */
    static IngressAnswer handshake(HandshakeAnswer answer) {
        if (answer.text() != null) {
            return new IngressAnswer(OK, new IngressReply(null, null, null, answer.text(), null, null), null, null,
                    answer.text());
        }
        return IngressAnswer.of(OK, new IngressReply(null, null, null, answer.challenge(), answer.plainToken(),
                answer.encryptedToken(), answer.type()));
    }

    static IngressAnswer methodNotAllowed() {
        return new IngressAnswer(METHOD_NOT_ALLOWED, IngressReply.status("method_not_allowed"), "Allow", "POST");
    }

    /** The tenant lookup (database) failed before the actor saw the event: nothing was stored. */
    static IngressAnswer unavailable(long retryAfterSeconds) {
        return IngressAnswer.retryAfter(SERVICE_UNAVAILABLE, new IngressReply("unavailable", null, "not_stored"),
                retryAfterSeconds);
    }

    // Refusals at the edge (IngressGate), before the sender is authenticated.

    /**
     * The id could not be looked up: the replica has not read its tenant ids yet, or the origin pull-through's bulkhead
     * is full. So this is no 404. Nothing was stored.
     */
    static IngressAnswer lookupBusy(long retryAfterSeconds) {
        return IngressAnswer.retryAfter(SERVICE_UNAVAILABLE, new IngressReply("unavailable", null, "lookup_busy"),
                retryAfterSeconds);
    }

    /** No {@code Host} line in an HTTP/1.1 request, an empty one, two of them, or one that is not a host[:port]. */
    static IngressAnswer invalidHost() {
        return IngressAnswer.of(BAD_REQUEST, new IngressReply("bad_request", null, "invalid_host"));
    }

    static IngressAnswer invalidPath() {
        return IngressAnswer.of(BAD_REQUEST, new IngressReply("bad_request", null, "invalid_path"));
    }

    static IngressAnswer tooManyHeaders() {
        return IngressAnswer.of(HEADER_FIELDS_TOO_LARGE, IngressReply.status("too_many_headers"));
    }

    /** The body did not arrive within {@code buffer.ingress.body-timeout}: nothing was stored. */
    static IngressAnswer bodyTimeout() {
        return IngressAnswer.of(REQUEST_TIMEOUT, IngressReply.status("request_timeout"));
    }

    /** The replica holds {@code buffer.ingress.max-in-flight-bytes} of bodies already: nothing was stored. */
    static IngressAnswer busy(long retryAfterSeconds) {
        return IngressAnswer.retryAfter(SERVICE_UNAVAILABLE, new IngressReply("unavailable", null, "replica_busy"),
                retryAfterSeconds);
    }

    /** No room on the verification pool (all tenants, or this tenant's share while it is flooded): no MAC. */
    static IngressAnswer verificationBusy() {
        return IngressAnswer.retryAfter(SERVICE_UNAVAILABLE,
                new IngressReply("unavailable", null, "verification_busy"), 1);
    }
}
