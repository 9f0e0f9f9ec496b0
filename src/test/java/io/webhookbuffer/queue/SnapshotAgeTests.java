package io.webhookbuffer.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import io.vertx.core.Vertx;
import io.webhookbuffer.testsupport.TestClock;

/**
 * {@code buffer_backlog_snapshot_age_seconds} says how long the backlog figures have gone unread, also when nothing
 * was ever read: a replica whose database went away before its first read must show a growing age (the stale-snapshot
 * alert is {@code > 120}), not a constant -1 that no alert fires on. HealthTests once cut PostgreSQL 2.7 s after the
 * start, before the first read, and waited in vain for the age to pass 6 s.
 */
class SnapshotAgeTests {

    private final Vertx vertx = Vertx.vertx();
    private final TestClock clock = new TestClock(vertx);

    @Test
    void beforeTheFirstReadTheAgeCountsFromTheStart() {
        QueueSnapshots snapshots = new QueueSnapshots(null, null, null, clock);
        clock.advance(Duration.ofSeconds(10));
        assertEquals(10, snapshots.ageSeconds(), 0.5);
        clock.advance(Duration.ofSeconds(120));
        assertEquals(130, snapshots.ageSeconds(), 0.5);
        vertx.close();
    }
}
