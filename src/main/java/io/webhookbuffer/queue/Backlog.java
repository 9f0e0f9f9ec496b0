package io.webhookbuffer.queue;

import java.time.OffsetDateTime;

/**
 * A tenant's queue as an SRE sees it. {@code state} is {@code empty} or {@code pending} (events wait for the
 * drainer); {@code nextAttemptAt} is the earliest time a waiting event may be sent.
 */
public record Backlog(long depth, long oldestAgeSeconds, OffsetDateTime nextAttemptAt, String state) {
}
