package io.webhookbuffer.ingress;

/**
 * Told about every ingest answer (the metrics package implements it). Called on the thread that completes the
 * answer: it must be cheap and must not block.
 */
public interface IngressListener {

    void answered(IngestOutcome outcome, long elapsedNanos);

    /** An answer given for lack of room or of trust, or to a malformed request (also counted by outcome if any). */
    void refused(EdgeRefusal reason);

    /** A body large enough to be verified on the verification pool, off the event loop, was handed to it. */
    void offloaded();
}
