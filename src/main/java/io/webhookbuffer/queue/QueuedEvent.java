package io.webhookbuffer.queue;

import java.time.OffsetDateTime;

/**
 * A row of event_queue as the drainer reads it. {@code attempts} counts every try that carried it so far (a halving
 * try included); {@code failures} only the tries that failed for the event's own reason (see
 * delivery.FailurePolicy); {@code isolatedAtMillis} is when it last failed alone (epoch ms, 0 when it never did): such
 * an event is held aside and retried alone; {@code waits} the tries after which it waited out a backoff (the backoff
 * grows with it). {@code deliverableSinceMillis} is when the event last became deliverable (epoch ms): its receipt,
 * its replay from dead letters, or the end of its tenant's last pause or hold, whichever is latest;
 * {@code buffer.delivery.max-age} counts from there. {@code traceParent} is the W3C text of its ingest span's context
 * (null when tracing was off when it was stored): the delivery span links to it and the origin gets it.
 */
public record QueuedEvent(long id, String eventId, byte[] body, String contentType, String headersJson,
        OffsetDateTime receivedAt, int attempts, OffsetDateTime nextAttemptAt, int failures, long isolatedAtMillis,
        int waits, long deliverableSinceMillis, String traceParent) {

    /** A row without a trace context. */
    public QueuedEvent(long id, String eventId, byte[] body, String contentType, String headersJson,
            OffsetDateTime receivedAt, int attempts, OffsetDateTime nextAttemptAt, int failures, long isolatedAtMillis,
            int waits, long deliverableSinceMillis) {
        this(id, eventId, body, contentType, headersJson, receivedAt, attempts, nextAttemptAt, failures,
                isolatedAtMillis, waits, deliverableSinceMillis, null);
    }

    /** The event failed alone before: it is sent alone, and waits aside while the events behind it go on. */
    public boolean heldAside() {
        return isolatedAtMillis > 0;
    }

    public long receivedAtMillis() {
        return receivedAt.toInstant().toEpochMilli();
    }

    public long dueAtMillis() {
        return nextAttemptAt.toInstant().toEpochMilli();
    }
}
