package io.webhookbuffer.ingress;

import io.webhookbuffer.verify.SenderRetries;

/**
 * Told about every ingest answer (the metrics package implements it). Called on the thread that completes the
 * answer: it must be cheap and must not block.
 */
public interface IngressListener {

    void answered(IngestOutcome outcome, long elapsedNanos);

    /** An answer given for lack of room or of trust, or to a malformed request (also counted by outcome if any). */
    void refused(EdgeRefusal reason);

    /**
     * A request for a known tenant was refused with a 429 or a 503 ({@code reason}: the answer's reason, else its
     * status word), whose sender does {@code retries} after a refusal: with {@code never}, an event lost for good.
     */
    void senderRefused(String reason, SenderRetries retries);

    /** A body large enough to be verified on the verification pool, off the event loop, was handed to it. */
    void offloaded();
}
