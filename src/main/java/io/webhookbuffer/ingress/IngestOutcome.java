package io.webhookbuffer.ingress;

import java.util.Locale;

/**
 * What the ingest endpoint answered, as operators count it ({@code buffer_ingest_total{outcome}}): each
 * {@link IngestAnswer} carries its own.
 */
public enum IngestOutcome {
    BUFFERED, DEDUPLICATED, RATE_LIMITED, QUEUE_QUOTA, BAD_SIGNATURE, UNKNOWN_TENANT, TOO_LARGE, UNAVAILABLE, HANDSHAKE,
    NOT_STORABLE;

    /** The label value: the constant's name in lower case. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
