package io.webhookbuffer.actor;

/** The tenant's decision about one event, as ingress turns it into HTTP. */
public record IngestResult(Kind kind, String eventId, long retryAfterSeconds) {

    /**
     * {@code Retry-After} (seconds) of a busy answer: a tenant's mailbox full, a replica's connections or bodies in
     * flight at their bound. Such a condition passes within a second or two, so the sender should come back soon; one
     * second is the smallest whole value the header takes.
     */
    public static final int BUSY_RETRY_AFTER_SECONDS = 1;

    /**
     * {@code Retry-After} (seconds) when an event was not stored (the durable write or the tenant's lookup failed or
     * timed out, a tenant past its queue quota) and on requests refused at shutdown. Such a condition lasts a database
     * failover or a deploy, tens of seconds; 30 s spreads the senders' retries over that time without leaving them
     * idle much past it, and a sender that ignores the header retries on its own schedule anyway. Was
     * {@code buffer.actor.unavailable-retry-after-seconds}.
     */
    public static final int UNAVAILABLE_RETRY_AFTER_SECONDS = 30;

    public enum Kind {
        /** Committed to PostgreSQL: 202. */
        BUFFERED,
        /**
         * Committed to PostgreSQL over the tenant's rate limit, because its sender does not retry: 202 with
         * {@code reason: paced} (the limit paces its delivery instead).
         */
        PACED,
        /** Already accepted before (or being accepted by an earlier copy that has now committed): 200. */
        DEDUPLICATED,
        /** Over the tenant's sliding window: 429 with Retry-After. */
        RATE_LIMITED,
        /** The tenant's queued bytes are at or past its quota: 429 with Retry-After, nothing written. */
        QUEUE_FULL,
        /** The durable write failed or timed out: 503 with Retry-After. */
        UNAVAILABLE,
        /** PostgreSQL refused this event's own data (and only this event's): 422, retrying cannot help. */
        NOT_STORABLE,
        /** The tenant's mailbox is full: 503 with Retry-After. */
        OVERLOADED
    }

    public static IngestResult of(Kind kind, String eventId) {
        return new IngestResult(kind, eventId, 0);
    }
}
