package io.webhookbuffer.queue;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;

/**
 * The queue as operators see it, read on a schedule by {@link QueueSnapshots}: totals over every tenant, and a row for
 * each tenant among the oldest backlogs or the latest dead letters ({@code buffer.queue.snapshot-tenants} of each).
 * {@code rows} are ordered by oldest pending age, then dead letters. {@code takenAt} is null before the first read.
 */
public record QueueSnapshot(Instant takenAt, long events, long oldestAgeSeconds, long tenants, long deadLetters,
        List<TenantRow> rows) {

    /**
     * One tenant: queued events; its head's (the next event to deliver, the oldest in delivery order) age, attempts,
     * next attempt and the origin's last answer on it (status null: no answer); its dead letters; and whether its
     * delivery is paused by a command.
     */
    public record TenantRow(String tenantId, long events, long oldestAgeSeconds, int headAttempts,
            OffsetDateTime nextAttemptAt, Integer lastStatus, String lastError, long deadLetters,
            OffsetDateTime lastDeadAt, boolean paused) {
    }

    public static final QueueSnapshot NONE = new QueueSnapshot(null, 0, 0, 0, 0, List.of());
}
