package io.webhookbuffer.ingress;

import java.util.Locale;

/** What the ingest endpoint answered, as operators count it ({@code buffer_ingest_total{outcome}}). */
public enum IngestOutcome {
    BUFFERED, DEDUPLICATED, RATE_LIMITED, QUEUE_QUOTA, BAD_SIGNATURE, UNKNOWN_TENANT, TOO_LARGE, UNAVAILABLE, HANDSHAKE,
    NOT_STORABLE;

    /**
     * The ingest contract maps one status to one outcome (405 is not an ingest attempt: null); a 200 is a duplicate
     * unless it answers a provider's handshake (Slack, Zoom, Discord), which is neither stored nor a duplicate.
     */
    static IngestOutcome of(int status, IngressReply reply) {
        return switch (status) {
            case 202 -> BUFFERED;
            // A 200 is also a stored event of a provider answered without a body (Xero): its reply says buffered.
            case 200 -> reply != null && reply.isHandshake() ? HANDSHAKE
                    : reply != null && "buffered".equals(reply.status()) ? BUFFERED : DEDUPLICATED;
            case 429 -> reply != null && IngressResponses.QUEUE_QUOTA.equals(reply.reason()) ? QUEUE_QUOTA : RATE_LIMITED;
            case 401 -> BAD_SIGNATURE;
            case 404 -> UNKNOWN_TENANT;
            case 413 -> TOO_LARGE;
            case 503 -> UNAVAILABLE;
            case IngressResponses.UNPROCESSABLE_CONTENT -> NOT_STORABLE;
            default -> null;
        };
    }

    /** The label value: the constant's name in lower case. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
