package io.webhookbuffer.queue;

/**
 * A verified event on its way to the queue. {@code headersJson} holds only the few headers the origin needs
 * (never a signature, token or secret).
 */
public record IncomingEvent(String tenantId, String eventId, byte[] body, String contentType, String headersJson,
        long receivedAtMillis) {
}
