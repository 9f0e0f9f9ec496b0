package io.webhookbuffer.usage;

/** What is counted, with its name in the usage snapshot and its column in {@code usage_buckets}. */
public enum UsageMetric {
    /** Every request that reached a known, active tenant, whatever its answer. */
    RECEIVED("received", "received"),
    /** Answered 202: committed to the queue. */
    ACCEPTED("accepted", "accepted"),
    /** Answered 200: a copy of an event already accepted. */
    DEDUPLICATED("deduplicated", "deduplicated"),
    /** Answered 429. */
    RATE_LIMITED("rateLimited", "rate_limited"),
    /** Answered 401: the provider signature did not verify. */
    REJECTED_SIGNATURE("rejectedSignature", "rejected_signature"),
    /** Taken by the origin (rows deleted after its 2xx). */
    DELIVERED("delivered", "delivered"),
    /** Moved to dead_letters. */
    DEAD_LETTERED("deadLettered", "dead_lettered"),
    /** Body bytes of accepted events. */
    BYTES_ACCEPTED("bytesAccepted", "bytes_accepted");

    private final String jsonName;
    private final String column;

    UsageMetric(String jsonName, String column) {
        this.jsonName = jsonName;
        this.column = column;
    }

    public String jsonName() {
        return jsonName;
    }

    public String column() {
        return column;
    }
}
