package io.webhookbuffer.ingress;

/** What the ingest endpoint answered, as operators count it ({@code buffer_ingest_total{outcome}}). */
public enum IngestOutcome {
    BUFFERED, DEDUPLICATED, RATE_LIMITED, BAD_SIGNATURE, UNKNOWN_TENANT, TOO_LARGE, UNAVAILABLE;

    /** The ingest contract maps one status to one outcome (405 is not an ingest attempt: null). */
    static IngestOutcome ofStatus(int status) {
        return switch (status) {
            case 202 -> BUFFERED;
            case 200 -> DEDUPLICATED;
            case 429 -> RATE_LIMITED;
            case 401 -> BAD_SIGNATURE;
            case 404 -> UNKNOWN_TENANT;
            case 413 -> TOO_LARGE;
            case 503 -> UNAVAILABLE;
            default -> null;
        };
    }

    /** The label value: the constant's name in lower case. */
    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
