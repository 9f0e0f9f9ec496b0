package io.webhookbuffer.queue;

import java.time.OffsetDateTime;

/**
 * A tenant's queue as an SRE sees it. {@code oldestAgeSeconds} and {@code nextAttemptAt} are its head's (the next event
 * to deliver, as in the backlog gauges): how long it has waited, and when it may be sent (null: nothing queued);
 * {@code leaseHolder} is the replica draining the tenant now (null when none). {@code state} is one of:
 * {@code paused} (the control plane paused delivery; ingest still buffers), {@code empty}, {@code backing_off}
 * (the origin failed; nothing is sent before {@code nextAttemptAt}), {@code delivering} (a replica holds the tenant)
 * or {@code pending} (events wait for a drainer: delivery off, or the next sweep picks them up); the backlog command
 * adds {@code held} (the tenant's stored originUrl is not allowed now: nothing is sent until it is).
 */
public record Backlog(long depth, long oldestAgeSeconds, OffsetDateTime nextAttemptAt, String state, boolean paused,
        String leaseHolder) {

    static String state(long depth, boolean paused, OffsetDateTime nextAttemptAt, String holder, OffsetDateTime now) {
        if (paused) {
            return "paused";
        }
        if (depth == 0) {
            return "empty";
        }
        if (nextAttemptAt != null && nextAttemptAt.isAfter(now)) {
            return "backing_off";
        }
        return holder != null ? "delivering" : "pending";
    }
}
