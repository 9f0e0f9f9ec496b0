package io.webhookbuffer.ingress;

import java.util.Locale;

/**
 * Why an ingest request was turned away before (or instead of) its verification and its actor, as operators count it
 * ({@code buffer_ingress_refusals_total{reason}}): the budgets that bound what an unauthenticated sender can make the
 * buffer spend, and the malformed requests the edge refuses. The label is the {@code reason} (or, for the three with
 * none, the {@code status}) of the JSON answer, whoever gave it: the actor's {@code not_stored} (a failed commit) is
 * counted with the lookup's.
 */
public enum EdgeRefusal {
    /** 503: the tenant was not cached and the budget for tenant lookups was spent (no query was made). */
    LOOKUP_BUSY,
    /** 503: the replica holds {@code buffer.ingress.max-in-flight-bytes} of bodies already. */
    REPLICA_BUSY,
    /** 503: no room on the verification pool, or the tenant's share of it while it is flooded. */
    VERIFICATION_BUSY,
    /** 503: the database failed, at the tenant lookup or at the event's group commit (the actor's answer); nothing stored. */
    NOT_STORED,
    /** 400: no, an empty or two {@code Host} lines. */
    INVALID_HOST,
    /** 400: a {@code .} or {@code ..} segment in the path, plain or percent-encoded. */
    INVALID_PATH,
    /** 431: more header lines than {@code IngressGate.MAX_HEADER_COUNT} (100). */
    TOO_MANY_HEADERS,
    /** 408: the body did not arrive within {@code buffer.ingress.body-timeout}. */
    REQUEST_TIMEOUT,
    /** No answer: the request head did not arrive within {@code buffer.ingress.head-timeout}; the connection closed. */
    HEAD_TIMEOUT,
    /** 503: past {@code buffer.ingress.max-connections} open connections; answered and closed, the body never read. */
    TOO_MANY_CONNECTIONS;

    /** The refusal an answer stands for, or null for any other answer. */
    static EdgeRefusal of(IngressReply reply) {
        if (reply == null) {
            return null;
        }
        String key = reply.reason() != null ? reply.reason() : reply.status();
        for (EdgeRefusal r : values()) {
            if (r.label().equals(key)) {
                return r;
            }
        }
        return null;
    }

    /** The label value: the constant's name in lower case. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
