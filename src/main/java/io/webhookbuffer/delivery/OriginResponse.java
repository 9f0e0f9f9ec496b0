package io.webhookbuffer.delivery;

import java.util.Map;

import io.webhookbuffer.common.UntrustedText;
import io.webhookbuffer.trace.BatchTrace;

/**
 * The origin's answer to one batch. {@code status} is 0 when there was no HTTP answer (connection refused, reset,
 * timeout); {@code unreachable} says the connection itself could not be made (nothing reached the origin, so the
 * failure cannot be the batch's); {@code rejected} maps eventId → reason for events a 2xx answer refused
 * individually. {@code trace} is the batch's span (ended), whose ids the drain's lines about the answer carry.
 */
public record OriginResponse(int status, long retryAfterMillis, Map<String, String> rejected, String error,
        boolean unreachable, BatchTrace trace) {

    public OriginResponse(int status, long retryAfterMillis, Map<String, String> rejected, String error,
            boolean unreachable) {
        this(status, retryAfterMillis, rejected, error, unreachable, BatchTrace.OFF);
    }

    public OriginResponse(int status, long retryAfterMillis, Map<String, String> rejected, String error) {
        this(status, retryAfterMillis, rejected, error, false);
    }

    /** This answer, with the span of the batch it answers. */
    OriginResponse traced(BatchTrace batchTrace) {
        return new OriginResponse(status, retryAfterMillis, rejected, error, unreachable, batchTrace);
    }

    /** Sent, or maybe sent, but no complete answer: a reset or a timeout. */
    public static OriginResponse noAnswer(String error) {
        return new OriginResponse(0, 0, Map.of(), error, false);
    }

    /** The connection could not be made: the batch never reached the origin. */
    public static OriginResponse unreachable(String error) {
        return new OriginResponse(0, 0, Map.of(), error, true);
    }

    public boolean success() {
        return status >= 200 && status < 300;
    }

    /**
     * Worth trying again later: no answer, 3xx, 408, 429, 5xx, and 401/403/404, which say the buffer or the origin is
     * misconfigured (token, route), not that the events are bad: they must not be dead-lettered by bisection.
     */
    public boolean retryable() {
        return !success() && !refused();
    }

    /**
     * The origin refuses the events themselves: a 4xx other than 401, 403, 404, 408 and 429. Everything else that is
     * not 2xx (no answer, 3xx redirects, 5xx) is retried: a moved or broken origin must not dead-letter a backlog.
     */
    public boolean refused() {
        return status >= 400 && status < 500 && status != 401 && status != 403 && status != 404 && status != 408
                && status != 429;
    }

    /**
     * An error as it is stored ({@code last_error}) and shown: without control characters, bidi controls or NUL
     * ({@link UntrustedText}), at most 1,000 characters (of which an origin's own text is at most 200, see
     * {@link OriginClient#snippet}).
     */
    static String truncate(String s) {
        return UntrustedText.cap(s, 1000);
    }
}
