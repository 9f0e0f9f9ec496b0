package io.webhookbuffer.queue;

import java.util.concurrent.atomic.LongAdder;

/** How many group commits ran and how many events they carried. */
public final class BatchStats {

    private final LongAdder commits = new LongAdder();
    private final LongAdder events = new LongAdder();
    private final LongAdder commitNanos = new LongAdder();

    void record(int batchSize, long nanos) {
        commits.increment();
        events.add(batchSize);
        commitNanos.add(nanos);
    }

    /** Time from sending a commit to its answer, summed over all commits. */
    public double commitSeconds() {
        return commitNanos.sum() / 1e9;
    }

    public long commits() {
        return commits.sum();
    }

    public long events() {
        return events.sum();
    }

    /** Mean events per commit, 0 before the first commit. */
    public double meanBatchSize() {
        long c = commits();
        return c == 0 ? 0 : (double) events() / c;
    }
}
