package io.webhookbuffer.queue;

/** What the durable write did with one event. */
public enum StoreOutcome {
    /** Committed: a queue row and a dedupe row exist. */
    STORED,
    /** Not written because the dedupe row already existed (the database's unique key is the truth). */
    DUPLICATE,
    /** Not known to be stored (the database failed or did not answer in time); nothing was left behind by us. */
    FAILED,
    /**
     * Refused by PostgreSQL for this event's own data (a data exception or a constraint, isolated to it by splitting
     * its commit): nothing was written, and writing it again would fail again. Definitive, unlike FAILED.
     */
    NOT_STORABLE
}
