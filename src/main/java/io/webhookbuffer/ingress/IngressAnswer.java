package io.webhookbuffer.ingress;

/**
 * One of the ingest contract's answers before it is written: the status, the JSON body, and the one header some
 * answers carry ({@code Retry-After}, or {@code Allow} on a 405; null for none). A plain value, so that the Vert.x
 * routes ({@link IngressGate}, {@link DirectIngest}) and RESTEasy ({@link WebhookResource}) write the same answer.
 * {@code text}, when not null, is written instead of the JSON as {@code text/plain} (Twitch's challenge); the reply
 * then only says what the answer is.
 */
record IngressAnswer(int status, IngressReply reply, String header, String value, String text) {

    IngressAnswer(int status, IngressReply reply, String header, String value) {
        this(status, reply, header, value, null);
    }

    /** Never the header's value: it may be a secret echoed to its sender (Asana's {@code X-Hook-Secret}). */
    @Override
    public String toString() {
        return "IngressAnswer[" + status + ", " + reply + (header == null ? "" : ", " + header + ": <hidden>") + "]";
    }

    static IngressAnswer of(int status, IngressReply reply) {
        return new IngressAnswer(status, reply, null, null);
    }

    static IngressAnswer retryAfter(int status, IngressReply reply, long seconds) {
        return new IngressAnswer(status, reply, "Retry-After", Long.toString(seconds));
    }

    /**
     * Tells the listener (the metrics: {@code buffer_ingest_total{outcome}}, {@code buffer_ingest_ack}) about this
     * answer to a request taken at {@code startedNanos}; nothing for an answer that is no ingest attempt (405).
     */
    void reportTo(IngressListener listener, long startedNanos) {
        IngestOutcome outcome = IngestOutcome.of(status, reply);
        if (outcome != null) {
            listener.answered(outcome, System.nanoTime() - startedNanos);
        }
        EdgeRefusal refusal = EdgeRefusal.of(reply);
        if (refusal != null) {
            listener.refused(refusal);
        }
    }
}
