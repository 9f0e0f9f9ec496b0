package io.webhookbuffer.delivery;

import java.util.List;

import io.webhookbuffer.queue.QueuedEvent;

/**
 * A tenant's side of failure attribution (see {@link FailurePolicy}): the batch size, halved to isolate an event that
 * fails and doubled back on success, and what the tenant's last answers said. Changed only by the step that holds
 * the tenant (steps run on different event loops, hence volatile).
 */
final class Isolation {

    private final int batchSize;
    /** Batch size now. */
    private volatile int limit;
    /**
     * A suspect failure is being isolated by halving: the next failure continues the halving whatever the origin's
     * health says, and these tries do not count in the origin's breaker.
     */
    private volatile boolean isolating;
    /** An event was just held aside: the next batch (the events behind it) shows whether the origin works. */
    private volatile boolean probing;
    /**
     * The probe behind a held event failed as well: this tenant's events fail, not one of them, so its suspect
     * failures count as the origin's until one of its batches is accepted.
     */
    private volatile boolean tenantFailing;

    Isolation(int batchSize) {
        this.batchSize = batchSize;
        this.limit = batchSize;
    }

    int limit() {
        return limit;
    }

    /** A halving is in progress: its tries bypass the breaker (see {@link OriginBreakers#send}). */
    boolean halving() {
        return isolating;
    }

    /** A halving try, or a held event sent alone: judged as the suspect's failure, not the origin's. */
    boolean isolationTry(List<QueuedEvent> batch) {
        return isolating || (batch.size() == 1 && batch.get(0).heldAside());
    }

    FailurePolicy.Context context(OriginHealth seen, boolean isolationTry, long nowMillis) {
        return new FailurePolicy.Context(seen.lastSuccess(), seen.lastFailure(), isolationTry, probe(isolationTry),
                tenantFailing, nowMillis);
    }

    void delivered() {
        isolating = false;
        probing = false;
        tenantFailing = false;
        limit = Math.min(batchSize, limit * 2);
    }

    /** After the decision on a failed batch: a failed probe says the tenant's events fail as a whole. */
    void failed(FailurePolicy.Verdict verdict, boolean isolationTry) {
        if (!isolationTry && (verdict == FailurePolicy.Verdict.SUSPECT
                || verdict == FailurePolicy.Verdict.UNAVAILABLE)) {
            tenantFailing = tenantFailing || (probe(isolationTry) && verdict == FailurePolicy.Verdict.SUSPECT);
            probing = false;
        }
    }

    void split(FailurePolicy.Verdict verdict, int newLimit) {
        isolating = isolating || verdict == FailurePolicy.Verdict.SUSPECT;
        limit = newLimit;
    }

    /** The event failed alone and waits aside: full batches again, and the next one probes the origin. */
    void heldAside() {
        isolating = false;
        probing = true;
        limit = batchSize;
    }

    /** Any other decision ends a halving. */
    void settled() {
        isolating = false;
    }

    private boolean probe(boolean isolationTry) {
        return probing && !isolationTry;
    }
}
