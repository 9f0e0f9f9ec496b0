package io.webhookbuffer.ingress;

/**
 * Told about every ingest answer (the metrics package implements it). Called on the thread that completes the
 * answer: it must be cheap and must not block.
 */
public interface IngressListener {

    void answered(IngestOutcome outcome, long elapsedNanos);
}
