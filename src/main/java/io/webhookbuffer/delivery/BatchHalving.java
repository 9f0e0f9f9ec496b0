package io.webhookbuffer.delivery;

import java.util.List;

import io.webhookbuffer.queue.QueuedEvent;

/**
 * A tenant's side of failure attribution (see {@link FailurePolicy}): the batch size, halved to isolate an event that
 * fails and doubled back on success, and what the tenant's last answers said. Changed only by the step that holds
 * the tenant (steps run on different event loops, hence volatile).
 */
final class BatchHalving {

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
    /**
     * One of the tenant's batches was accepted since the last event was held aside (or since the drain began): the
     * tenant is served, so the batch behind a newly held event goes on with the halving rather than probing.
     */
    private volatile boolean deliveredSinceHold;

    BatchHalving(int batchSize) {
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
        deliveredSinceHold = true;
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

    /**
     * An event failed alone and waits aside: full batches again. When one of the tenant's batches was accepted since
     * the last hold, the halving goes on (another poison in the next batch is halved down to one event as well);
     * otherwise the next batch probes the origin. A held event's own retry ({@code newlyHeld} false) changes nothing.
     */
    void heldAside(boolean newlyHeld) {
        if (!newlyHeld) {
            return;
        }
        isolating = deliveredSinceHold && !tenantFailing;
        probing = !isolating && !tenantFailing;
        deliveredSinceHold = false;
        limit = batchSize;
    }

    /** A retry ends a halving; the next try carries {@code nextLimit} events when that halves the batch. */
    void retried(int batchSent, int nextLimit) {
        isolating = false;
        if (nextLimit < batchSent) {
            limit = Math.max(1, nextLimit);
        }
    }

    /** Any other decision ends a halving. */
    void settled() {
        isolating = false;
    }

    /**
     * Events moved to dead_letters: ends a halving; a halving spaced by backoffs (the tenant failing) that reached one
     * event starts again with full batches.
     */
    void deadLettered() {
        isolating = false;
        if (tenantFailing) {
            limit = batchSize;
        }
    }

    private boolean probe(boolean isolationTry) {
        return probing && !isolationTry;
    }
}
