package io.webhookbuffer.usage;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
    /** The warm-up's rehearsal tenant: never counted (its tally is thrown away, never flushed or pushed). */
    private volatile String ignored = "";

    /** One tenant's counters; fetch once per request and count on it. */
    public Tally of(String tenantId) {
        if (ignored.equals(tenantId)) {
            return new Tally();
        }
        Tally tally = tallies.get(tenantId); // the common case: a plain read, no bin lock
        return tally != null ? tally : tallies.computeIfAbsent(tenantId, id -> new Tally());
    }

    /** Counts nothing for {@code tenantId} from now on (the warm-up's rehearsal tenant, whose id is never reused). */
    public void ignore(String tenantId) {
        ignored = tenantId;
        tallies.remove(tenantId);
    }

    public void add(String tenantId, UsageMetric metric, long n) {
        if (n != 0) {
            of(tenantId).add(metric, n);
        }
    }

    /** Takes every non-zero count, leaving the counters at what arrived meanwhile. */
    public List<Counts> drain() {
        List<Counts> out = new ArrayList<>();
        tallies.forEach((tenantId, tally) -> {
            long[] values = new long[METRICS];
            boolean any = false;
            for (int i = 0; i < METRICS; i++) {
                values[i] = tally.adders[i].sum();
                if (values[i] != 0) {
                    tally.adders[i].add(-values[i]);
                    any = true;
                }
            }
            if (any) {
                out.add(new Counts(tenantId, values));
            }
        });
        return out;
    }

    /** Gives back counts a flush could not store, so the next flush carries them. */
    public void restore(List<Counts> counts) {
        for (Counts c : counts) {
            Tally tally = of(c.tenantId());
            for (int i = 0; i < METRICS; i++) {
                tally.adders[i].add(c.values()[i]);
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
        private final LongAdder[] adders = new LongAdder[METRICS];

        Tally() {
            for (int i = 0; i < METRICS; i++) {
                adders[i] = new LongAdder();
            }
        }

        public void add(UsageMetric metric, long n) {
            adders[metric.ordinal()].add(n);
        }

        public void increment(UsageMetric metric) {
            adders[metric.ordinal()].increment();
        }
    }
}
