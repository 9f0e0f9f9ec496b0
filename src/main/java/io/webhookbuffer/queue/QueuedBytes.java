package io.webhookbuffer.queue;

import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.LongStream;

import jakarta.enterprise.context.ApplicationScoped;

/**
 * The body bytes each tenant has queued, as this replica knows them: what the last backlog snapshot read from the
 * queue_depth counters (migration V18; {@link QueueSnapshots} reads them with the backlog, every
 * {@code buffer.queue.snapshot-interval}), plus the bytes this replica stored itself since that read began. The
 * queue quota is checked against it in the tenant's actor, so the ingest path never queries for it.
 *
 * <p>Approximate, on purpose, and documented (docs/operations.md, "The queue quota"):
 * <ul>
 * <li>Bytes other replicas store count here from the next snapshot on: with R replicas, a tenant can pass its quota by
 * what the others accept in one interval (plus the read's own time). Bytes delivered count from the next snapshot on
 * too: a tenant at its quota is accepted again within an interval of its drain.</li>
 * <li>The event that reaches the quota is accepted whole (the check is "already at or past it").</li>
 * <li>A store that commits while a read begins may be counted twice until the next read (refused a little early,
 * never late); one counted into the previous generation just as it is replaced may be missed until the next read.</li>
 * </ul>
 * Failure policy: a read that fails keeps the previous figures and this replica's own stores since, so a tenant at its
 * quota stays refused until a read succeeds (its backlog cannot drain meanwhile either, when PostgreSQL is away).
 * Memory: the tenants with a backlog, and those that stored since the last read.
 *
 * <p>The storage guard ({@code buffer.queue.max-queued-bytes}) lowers every tenant's quota to one {@link #level}
 * computed at each read from all tenants' figures, so past it the largest backlogs are refused first and a tenant
 * within its share never is. Same freshness as the quota.
 */
@ApplicationScoped
public class QueuedBytes {

    /** Share of its quota at which a tenant counts as near it ({@code buffer_queue_quota_near_tenants}). */
    public static final double NEAR = 0.8;

    private final QueueConfig config;
    /** Per tenant, its bytes as the last successful read found them (only tenants with some). */
    private volatile Map<String, Long> read = Map.of();
    /** Bytes this replica stored before the running (or last failed) read began: not yet known to be in {@link #read}. */
    private volatile Map<String, LongAdder> before = new ConcurrentHashMap<>();
    /** Bytes this replica stored since the running or last read began. */
    private volatile Map<String, LongAdder> since = new ConcurrentHashMap<>();
    private volatile long near;
    private volatile long full;
    /** The storage guard's level at the last read: {@link Long#MAX_VALUE} when it is off or the total is below it. */
    private volatile long level = Long.MAX_VALUE;
    private volatile double storageUsed;

    public QueuedBytes(QueueConfig config) {
        this.config = config;
    }

    /** A tenant's quota: its own {@code maxQueuedBytes}, else {@code buffer.queue.max-queued-bytes-per-tenant}. */
    public long quota(Long own) {
        return own == null ? config.maxQueuedBytesPerTenant() : own;
    }

    /**
     * True when the tenant's queued bytes, as known here, are at or past its quota ({@code own}: its
     * {@code maxQueuedBytes}, null for the default): a new event is refused.
     */
    public boolean full(String tenantId, Long own) {
        return of(tenantId) >= Math.min(quota(own), level);
    }

    /** The tenant's queued bytes as this replica knows them. */
    public long of(String tenantId) {
        return read.getOrDefault(tenantId, 0L) + sum(before, tenantId) + sum(since, tenantId);
    }

    /** This replica committed {@code bytes} of the tenant's bodies to the queue. */
    public void stored(String tenantId, long bytes) {
        since.computeIfAbsent(tenantId, id -> new LongAdder()).add(bytes);
    }

    /** Tenants at {@link #NEAR} of their quota or more, and at or past it, at the last read. */
    public long nearQuota() {
        return near;
    }

    public long atQuota() {
        return full;
    }

    /**
     * All tenants' queued bytes at the last read, as a share of {@code buffer.queue.max-queued-bytes} (the storage
     * guard: past 1, the largest backlogs are refused); 0 when no guard is set.
     */
    public double storageUsed() {
        return storageUsed;
    }

    /**
     * The storage guard's level: the most each tenant may have queued so that all of them, each cut to it, hold
     * {@code capacity}; {@link Long#MAX_VALUE} when {@code queued} adds up to no more than {@code capacity}. Max-min
     * fairness (water filling): the largest backlogs are above it first, and it is never below {@code capacity}
     * divided by the tenants with a backlog, so a tenant within that share is never refused. At least 1, so a tenant
     * with nothing queued is never refused.
     */
    static long level(long[] queued, long capacity) {
        long[] sorted = queued.clone();
        Arrays.sort(sorted);
        long left = capacity;
        for (int i = 0; i < sorted.length; i++) {
            long rest = sorted.length - i;
            if (sorted[i] > left / rest) {
                return Math.max(1, left / rest);
            }
            left -= sorted[i];
        }
        return Long.MAX_VALUE;
    }

    /** A read of the counters is about to begin: what was stored until now will be in it. */
    void reading() {
        Map<String, LongAdder> until = since;
        since = new ConcurrentHashMap<>();
        Map<String, LongAdder> merged = before;
        until.forEach((id, bytes) -> merged.computeIfAbsent(id, k -> new LongAdder()).add(bytes.sum()));
    }

    /** The read succeeded: per tenant with queued bytes, its bytes and quota. */
    void read(Map<String, long[]> bytesAndQuota) {
        Map<String, Long> bytes = new ConcurrentHashMap<>(bytesAndQuota.size());
        bytesAndQuota.forEach((id, figures) -> bytes.put(id, figures[0]));
        long[] all = bytes.values().stream().mapToLong(Long::longValue).toArray();
        long capacity = config.maxQueuedBytes().orElse(Long.MAX_VALUE);
        long newLevel = level(all, capacity);
        long nearCount = 0;
        long fullCount = 0;
        for (long[] figures : bytesAndQuota.values()) {
            long limit = Math.min(figures[1], newLevel);
            nearCount += figures[0] >= limit * NEAR ? 1 : 0;
            fullCount += figures[0] >= limit ? 1 : 0;
        }
        read = bytes;
        before = new ConcurrentHashMap<>();
        level = newLevel;
        near = nearCount;
        full = fullCount;
        storageUsed = config.maxQueuedBytes().map(max -> (double) LongStream.of(all).sum() / max).orElse(0.0);
    }

    private static long sum(Map<String, LongAdder> counts, String tenantId) {
        LongAdder adder = counts.get(tenantId);
        return adder == null ? 0 : adder.sum();
    }
}
