package io.webhookbuffer.ingress;

import io.webhookbuffer.actor.IngestResult;
import io.webhookbuffer.verify.HandshakeAnswer;
import io.webhookbuffer.verify.VerificationFailure;

/**
 * One of the ingest answers (README, "Ingest answers"), decided and not yet written: the status, the JSON body
 * ({@code reply}), the one header some answers carry ({@code Retry-After}, {@code Allow} on a 405, Asana's echoed
 * secret; null for none), and how operators count it ({@code outcome}, the label of {@code buffer_ingest_total}; null
 * for an answer that is no ingest attempt: a 405, a malformed request). {@code text}, when not null, is written
 * instead of the JSON as {@code text/plain} (Twitch's challenge), or, empty, as no body at all (Xero); the reply then
 * only says what the answer is. Every ingest answer is made here, by what was decided, never read back from a status.
 */
record IngestAnswer(int status, IngestOutcome outcome, IngressReply reply, String header, String value, String text) {

    /** RFC 9110 §15.5.21. */
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
    private static final String RETRY_AFTER = "Retry-After";

    /** The reason of the answer to an event whose tenant is at its queue quota (429 rate_limited). */
    static final String QUEUE_QUOTA = "queue_quota";

    /**
     * The reason of a 202 to an event over its tenant's rate limit, stored because its sender does not retry: the
     * limit paces its delivery (docs/providers.md, "What a sender does after a refusal").
     */
    static final String PACED = "paced";

    /** The status word of the answer to a secret handshake taken in its window (Asana). */
    static final String HANDSHAKE_ACCEPTED = "handshake_accepted";

    /** Never the header's value: it may be a secret echoed to its sender (Asana's {@code X-Hook-Secret}). */
    @Override
    public String toString() {
        return "IngestAnswer[" + status + ", " + outcome + ", " + reply
                + (header == null ? "" : ", " + header + ": <hidden>") + "]";
    }

    static IngestAnswer of(int status, IngestOutcome outcome, IngressReply reply) {
        return new IngestAnswer(status, outcome, reply, null, null, null);
    }

    private static IngestAnswer retryAfter(int status, IngestOutcome outcome, IngressReply reply, long seconds) {
        return new IngestAnswer(status, outcome, reply, RETRY_AFTER, Long.toString(seconds), null);
    }

    /**
     * Tells the listener (the metrics: {@code buffer_ingest_total{outcome}}, {@code buffer_ingest_ack},
     * {@code buffer_ingress_refusals_total{reason}}) about this answer to a request taken at {@code startedNanos}.
     */
    void reportTo(IngressListener listener, long startedNanos) {
        if (outcome != null) {
            listener.answered(outcome, System.nanoTime() - startedNanos);
        }
        EdgeRefusal refusal = EdgeRefusal.of(reply);
        if (refusal != null) {
            listener.refused(refusal);
        }
    }

    /** What the tenant's actor decided about a verified event. */
    static IngestAnswer of(IngestResult result) {
        String id = result.eventId();
        long retry = result.retryAfterSeconds();
        return switch (result.kind()) {
            case BUFFERED -> of(ACCEPTED, IngestOutcome.BUFFERED, new IngressReply("buffered", id, null));
            case PACED -> of(ACCEPTED, IngestOutcome.BUFFERED, new IngressReply("buffered", id, PACED));
            case DEDUPLICATED -> of(OK, IngestOutcome.DEDUPLICATED, new IngressReply("deduplicated", id, null));
            case NOT_STORABLE -> of(UNPROCESSABLE_CONTENT, IngestOutcome.NOT_STORABLE,
                    new IngressReply("not_storable", id, null));
            case RATE_LIMITED -> retryAfter(TOO_MANY_REQUESTS, IngestOutcome.RATE_LIMITED,
                    new IngressReply("rate_limited", id, null), retry);
            case QUEUE_FULL -> retryAfter(TOO_MANY_REQUESTS, IngestOutcome.QUEUE_QUOTA,
                    new IngressReply("rate_limited", id, QUEUE_QUOTA), retry);
            case UNAVAILABLE -> retryAfter(SERVICE_UNAVAILABLE, IngestOutcome.UNAVAILABLE,
                    new IngressReply("unavailable", id, "not_stored"), retry);
            case OVERLOADED -> retryAfter(SERVICE_UNAVAILABLE, IngestOutcome.UNAVAILABLE,
                    new IngressReply("unavailable", id, "tenant_overloaded"), retry);
        };
    }

    /**
     * Xero's answers: a stored event (202) or a duplicate is 200, a refused signature 401, each with no body (the
     * JSON reply is kept for the request log and the refusals, and not written); other answers as usual. The outcome
     * stays what was decided: a stored event answered 200 still counts as buffered.
     */
    IngestAnswer bodiless() {
        if (text != null || (status != ACCEPTED && status != OK && status != UNAUTHORIZED)) {
            return this;
        }
        return new IngestAnswer(status == ACCEPTED ? OK : status, outcome, reply, null, null, "");
    }

    static IngestAnswer notFound() {
        return of(NOT_FOUND, IngestOutcome.UNKNOWN_TENANT, IngressReply.status("unknown_tenant"));
    }

    static IngestAnswer tooLarge() {
        return of(PAYLOAD_TOO_LARGE, IngestOutcome.TOO_LARGE, IngressReply.status("payload_too_large"));
    }

    static IngestAnswer unauthorized(VerificationFailure failure) {
        return of(UNAUTHORIZED, IngestOutcome.BAD_SIGNATURE,
                new IngressReply("invalid_signature", null, failure.reason()));
    }

    /**
     * A verified handshake (Slack url_verification, Zoom endpoint.url_validation, Discord PING, Twitch
     * webhook_callback_verification as text): 200, nothing buffered.
     */
    static IngestAnswer handshake(HandshakeAnswer answer) {
        if (answer.text() != null) {
            return new IngestAnswer(OK, IngestOutcome.HANDSHAKE,
                    new IngressReply(null, null, null, answer.text(), null, null), null, null, answer.text());
        }
        return of(OK, IngestOutcome.HANDSHAKE, new IngressReply(null, null, null, answer.challenge(),
                answer.plainToken(), answer.encryptedToken(), answer.type()));
    }

    /** A secret handshake taken in its window (Asana): the secret is committed, and echoed in {@code header}. */
    static IngestAnswer secretStored(String header, String secret) {
        return new IngestAnswer(OK, IngestOutcome.HANDSHAKE, IngressReply.status(HANDSHAKE_ACCEPTED), header, secret,
                null);
    }

    /** A secret handshake whose secret is malformed: nothing stored. */
    static IngestAnswer malformedHandshake() {
        return of(BAD_REQUEST, null, new IngressReply("invalid_handshake", null, "malformed_handshake"));
    }

    /** A secret handshake outside an open window: nothing stored. */
    static IngestAnswer noHandshakeWindow() {
        return of(FORBIDDEN, null, new IngressReply("handshake_refused", null, "no_handshake_window"));
    }

    /** Another of the tenant's secret handshakes is at the database now: nothing stored. */
    static IngestAnswer handshakeRate(long retryAfterSeconds) {
        return retryAfter(TOO_MANY_REQUESTS, IngestOutcome.RATE_LIMITED,
                new IngressReply("rate_limited", null, "handshake_rate"), retryAfterSeconds);
    }

    /** A provider's check in a query string that failed: malformed (400) or a wrong token (401). */
    static IngestAnswer queryHandshakeRefused(boolean malformed, String reason) {
        return malformed ? of(BAD_REQUEST, null, new IngressReply("invalid_handshake", null, reason))
                : of(UNAUTHORIZED, IngestOutcome.BAD_SIGNATURE, new IngressReply("invalid_handshake", null, reason));
    }

    /** Any method but POST on the ingest path (but a provider's check in a query string): no ingest attempt. */
    static IngestAnswer methodNotAllowed() {
        return new IngestAnswer(METHOD_NOT_ALLOWED, null, IngressReply.status("method_not_allowed"), "Allow", "POST",
                null);
    }

    /** The tenant lookup (database), or the verification, failed before the actor saw the event: nothing stored. */
    static IngestAnswer unavailable(long retryAfterSeconds) {
        return retryAfter(SERVICE_UNAVAILABLE, IngestOutcome.UNAVAILABLE,
                new IngressReply("unavailable", null, "not_stored"), retryAfterSeconds);
    }

    // Refusals at the edge (IngressGate), before the sender is authenticated.

    /**
     * The id could not be looked up: the replica has not read its tenant ids yet, or the origin pull-through's bulkhead
     * is full. So this is no 404. Nothing was stored.
     */
    static IngestAnswer lookupBusy(long retryAfterSeconds) {
        return retryAfter(SERVICE_UNAVAILABLE, IngestOutcome.UNAVAILABLE,
                new IngressReply("unavailable", null, "lookup_busy"), retryAfterSeconds);
    }

    /** No {@code Host} line in an HTTP/1.1 request, an empty one, two of them, or one that is not a host[:port]. */
    static IngestAnswer invalidHost() {
        return of(BAD_REQUEST, null, new IngressReply("bad_request", null, "invalid_host"));
    }

    static IngestAnswer invalidPath() {
        return of(BAD_REQUEST, null, new IngressReply("bad_request", null, "invalid_path"));
    }

    static IngestAnswer tooManyHeaders() {
        return of(HEADER_FIELDS_TOO_LARGE, null, IngressReply.status("too_many_headers"));
    }

    /** The body did not arrive within {@code buffer.ingress.body-timeout}: nothing was stored. */
    static IngestAnswer bodyTimeout() {
        return of(REQUEST_TIMEOUT, null, IngressReply.status("request_timeout"));
    }

    /** The replica holds {@code buffer.ingress.max-in-flight-bytes} of bodies already: nothing was stored. */
    static IngestAnswer busy(long retryAfterSeconds) {
        return retryAfter(SERVICE_UNAVAILABLE, IngestOutcome.UNAVAILABLE,
                new IngressReply("unavailable", null, "replica_busy"), retryAfterSeconds);
    }

    /** No room on the verification pool (all tenants, or this tenant's share while it is flooded): no MAC. */
    static IngestAnswer verificationBusy() {
        return retryAfter(SERVICE_UNAVAILABLE, IngestOutcome.UNAVAILABLE,
                new IngressReply("unavailable", null, "verification_busy"), 1);
    }
}
