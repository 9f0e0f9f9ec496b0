package io.webhookbuffer.usage;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

import jakarta.enterprise.context.ApplicationScoped;

/**
 * This replica's usage counts since the last flush, per tenant: a map lookup and a {@link LongAdder} increment per
 * counted fact, nothing else on the ingest path. {@link #drain()} takes the counts for a flush by subtracting what it
 * read (never by resetting, which would lose an increment that lands between the read and the reset); a failed flush
 * gives them back with {@link #restore}.
 */
@ApplicationScoped
public class UsageCounters {

    private static final int METRICS = UsageMetric.values().length;

    private final Map<String, Tally> tallies = new ConcurrentHashMap<>();
    /** Tallies dropped from {@link #tallies} that were counted on after (a request held one): the next drain takes them. */
    private final Set<Tally> rescued = ConcurrentHashMap.newKeySet();

    /** One tenant's counters; fetch once per request and count on it. */
    public Tally of(String tenantId) {
        Tally tally = tallies.get(tenantId); // the common case: a plain read, no bin lock
        return tally != null ? tally : tallies.computeIfAbsent(tenantId, id -> new Tally(this, id));
    }

    public void add(String tenantId, UsageMetric metric, long n) {
        if (n != 0) {
            of(tenantId).add(metric, n);
        }
    }

    /**
     * Takes every non-zero count, leaving the counters at what arrived meanwhile. A tally with nothing to take (the
     * tenant counted nothing for a whole flush interval) is dropped, so the map holds the tenants active lately, not
     * every tenant ever seen. Nothing counted is lost: a tally is marked retired before it leaves the map and read
     * once more after; a count that lands on it later (a request fetched it before) sees the mark and hands the tally
     * to {@link #rescued}, which the next drain takes. One tenant's counts come out as one entry.
     */
    public List<Counts> drain() {
        Map<String, long[]> out = new LinkedHashMap<>();
        tallies.forEach((tenantId, tally) -> {
            if (!take(tally, out)) {
                tally.retired = true;
                tallies.remove(tenantId, tally);
                take(tally, out); // a count that landed before the mark was seen
            }
        });
        for (Tally tally : rescued) {
            rescued.remove(tally); // before the read: a count after it rescues the tally again
            take(tally, out);
        }
        List<Counts> counts = new ArrayList<>();
        out.forEach((tenantId, values) -> counts.add(new Counts(tenantId, values)));
        return counts;
    }

    /** Moves the tally's counts into {@code out}; false when it had none. */
    private static boolean take(Tally tally, Map<String, long[]> out) {
        boolean any = false;
        for (int i = 0; i < METRICS; i++) {
            long value = tally.adders[i].sum();
            if (value != 0) {
                tally.adders[i].add(-value);
                out.computeIfAbsent(tally.tenantId, id -> new long[METRICS])[i] += value;
                any = true;
            }
        }
        return any;
    }

    /** Tenants with a tally now (for tests and diagnostics). */
    public int tenants() {
        return tallies.size();
    }

    /** Gives back counts a flush could not store, so the next flush carries them. */
    public void restore(List<Counts> counts) {
        for (Counts c : counts) {
            Tally tally = of(c.tenantId());
            for (int i = 0; i < METRICS; i++) {
                tally.add(i, c.values()[i]);
            }
        }
    }

    /** Counts of one tenant, indexed by {@link UsageMetric#ordinal()}. */
    public record Counts(String tenantId, long[] values) {

        public long get(UsageMetric metric) {
            return values[metric.ordinal()];
        }
    }

    /** One tenant's adders. */
    public static final class Tally {
        private final UsageCounters owner;
        private final String tenantId;
        private final LongAdder[] adders = new LongAdder[METRICS];
        /** Dropped from the map by a drain: a count on it hands it to the owner's rescued set. */
        private volatile boolean retired;

        Tally(UsageCounters owner, String tenantId) {
            this.owner = owner;
            this.tenantId = tenantId;
            for (int i = 0; i < METRICS; i++) {
                adders[i] = new LongAdder();
            }
        }

        public void add(UsageMetric metric, long n) {
            add(metric.ordinal(), n);
        }

        public void increment(UsageMetric metric) {
            add(metric.ordinal(), 1);
        }

        // The count first, then the mark: a drain that marks after our read of it reads the count after the mark.
        private void add(int metric, long n) {
            adders[metric].add(n);
            if (retired) {
                owner.rescued.add(this);
            }
        }
    }
}
