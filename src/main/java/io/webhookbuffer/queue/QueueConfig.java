package io.webhookbuffer.queue;

import java.time.Duration;
import java.util.Optional;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** The durable write and dedupe retention ({@code buffer.queue.*}, {@code buffer.dedupe.*} live here). */
@ConfigMapping(prefix = "buffer.queue")
public interface QueueConfig {

    /**
     * Group commits in flight at once; events arriving meanwhile wait for the next one. One is best on the 2-core
     * reference machine (bigger batches: PostgreSQL's per-commit cost dominates small ones); raise it when the
     * database is remote (round trips dominate) or has many cores.
     */
    @WithDefault("1")
    int maxConcurrentCommits();

    /** A write not answered within this time is reported as failed (503) to its senders. */
    @WithDefault("5s")
    Duration writeTimeout();

    /**
     * How often the backlog snapshot (depth, oldest age and dead letters, overall and for the tenants that need
     * attention) is read from PostgreSQL for the metrics and the status page. Scrapes and page views never query.
     * The figures are at most this old (plus the read's own time); the read costs O(tenants with a backlog), not
     * O(queued events), which is what lets it run this often.
     */
    @WithDefault("3s")
    Duration snapshotInterval();

    /** How many tenants the snapshot keeps: the oldest backlogs, and separately the latest dead letters. */
    @WithDefault("100")
    int snapshotTenants();

    /**
     * Dead letters older than this (by the time they died) are removed, and so are delivered lifecycle events (the
     * record of the same incidents). SREs replay from dead letters: 30 days outlasts a long weekend plus a holiday
     * (about 5 days) six times over, two weeks of leave, and the sprint an origin team takes to fix the handler that
     * refused them; it is also one billing month, so a tenant disputing last month's deliveries can still be shown
     * what failed.
     */
    @WithDefault("30d")
    Duration deadLetterRetention();

    /**
     * Body bytes a tenant without its own {@code maxQueuedBytes} may have queued (the sum of its queued bodies, as
     * queue_depth counts them). A new event to a tenant at or past it is refused with {@code 429 rate_limited}
     * ({@code reason: queue_quota}) before anything is written; what is queued stays and is delivered. Checked against
     * the figure this replica read at the last backlog snapshot plus what it stored itself since (approximate: see
     * {@link QueuedBytes}). 1 GiB: about a day of a tenant's events at 5 a second of 2 KiB, or a thousand of the
     * largest default bodies (1 MiB), and the disk of a few such tenants is what a shared PostgreSQL is sized for.
     */
    @WithDefault("1073741824")
    long maxQueuedBytesPerTenant();

    /**
     * Body bytes all tenants together may have queued: the storage guard (unset: no guard). Past it, the tenants with
     * the largest backlogs are refused first, as if their quota were the level at which the tenants' backlogs, each
     * cut to it, add up to this ({@link QueuedBytes#level}); a tenant with less than this divided by the tenants with
     * a backlog is never refused by it. Size it to the disk PostgreSQL has for the queue, less what rows, indexes,
     * dead letters and the WAL take beside the bodies (docs/operations.md, "The storage guard"). No default: only the
     * operator knows the disk, and a guess would refuse events on a disk with room, or not guard a small one.
     */
    Optional<Long> maxQueuedBytes();
}
