package io.webhookbuffer.queue;

/**
 * A verified event on its way to the queue. {@code headersJson} holds only the few headers the origin needs
 * (never a signature, token or secret). {@code traceParent} is the W3C text of its ingest span's context (stored with
 * the row for the delivery's span and the origin), null when tracing is off.
 */
public record IncomingEvent(String tenantId, String eventId, byte[] body, String contentType, String headersJson,
        long receivedAtMillis, String traceParent) {

    /** An event without a trace context. */
    public IncomingEvent(String tenantId, String eventId, byte[] body, String contentType, String headersJson,
            long receivedAtMillis) {
        this(tenantId, eventId, body, contentType, headersJson, receivedAtMillis, null);
    }
}
