package io.webhookbuffer.queue;

import java.time.OffsetDateTime;

/** A row of event_queue as the drainer reads it. {@code attempts} counts failed deliveries so far. */
public record QueuedEvent(long id, String eventId, byte[] body, String contentType, String headersJson,
        OffsetDateTime receivedAt, int attempts, OffsetDateTime nextAttemptAt) {
}
