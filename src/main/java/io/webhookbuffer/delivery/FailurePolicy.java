package io.webhookbuffer.delivery;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.webhookbuffer.queue.QueuedEvent;

/**
 * Failure attribution, as a pure decision: what a failed batch means for its events. An event moves toward
 * {@code dead_letters} only for a failure that is its own; the origin being down, slow or overloaded never counts.
 *
 * <ul>
 * <li><b>Refused</b> (a 4xx other than 401, 403, 404, 408 and 429): the origin has judged the events. A batch is
 * halved until the refused event is alone, which is then dead-lettered.</li>
 * <li><b>Unavailable</b> (connection refused, 3xx, 401/403/404, 408, 429, 503): the origin as a whole cannot take
 * batches now. Every event of the batch is retried after the backoff; nothing counts toward dead letters.</li>
 * <li><b>Suspect</b> (any other 5xx, a timeout, a reset): either the origin is failing, or one event makes it fail
 * (poison that crashes it). When the origin looks healthy (no failure since its last success, or a success within
 * the last {@link #RECENT_SUCCESS_MILLIS}), the batch is halved until one event fails alone; that event is <em>held
 * aside</em>: retried alone on its own backoff while the events behind it go on, and the next of those batches
 * probes the origin. A failure of the held event counts as its own only when the origin accepted another batch
 * since its previous failure; after {@code buffer.delivery.max-attempts} such failures it is dead-lettered (while a
 * halving goes on, the batch behind a newly held event is halved as well: see {@link BatchHalving}). When the origin is
 * failing for others too, a suspect answer is treated as unavailable. When the probe behind a held event fails as
 * well (the tenant's events fail, not one of them), a held event's failures stop counting until one of the tenant's
 * batches is accepted again, and the halving goes on one step per backoff ({@link #spaced}).</li>
 * <li><b>Too old</b>: an event deliverable for longer than {@code buffer.delivery.max-age} that fails, for any
 * reason, is dead-lettered; from a batch being halved, only once it fails alone (a poison never takes good events
 * with it). The age counts from when the event last became deliverable (its receipt, its replay, the end of its
 * tenant's last pause or hold: {@link QueuedEvent#deliverableSinceMillis()}): max-age bounds how long the buffer
 * keeps trying, and time the event could not be tried never counts.</li>
 * </ul>
 *
 * <p>So an outage shorter than {@code max-age} dead-letters nothing: without a success between two failures of an
 * event, the second does not count, and one outage can add at most one own failure to an event (the one whose
 * previous failure came before the outage began). A held event that succeeds later arrives after the events that
 * went on meanwhile: the one exception to FIFO per tenant, and only for an event that failed alone.
 */
public final class FailurePolicy {

    /** How an answer is read. */
    public enum Verdict {
        DELIVERED, REFUSED, UNAVAILABLE, SUSPECT, CIRCUIT_OPEN
    }

    /** What the drainer does next. */
    public enum Action {
        /**
         * Count a try on every event and send the first {@code limit} of them again at once, to find the event that
         * fails.
         */
        SPLIT,
        /** Count a try on every event; the tenant waits {@code delayMillis}, then tries {@code limit} events. */
        RETRY,
        /** Count a try on the one event and hold it aside for {@code delayMillis}; the tenant goes on at once. */
        HOLD_ASIDE,
        /** Move {@code deadLetter} to dead_letters; the tenant goes on. */
        DEAD_LETTER,
        /** The breaker is open: nothing was sent or counted; the tenant waits {@code delayMillis}. */
        WAIT
    }

    /**
     * A decision. With {@link Action#RETRY}, {@code deadLetter} holds the events past {@code max-age} (dead-lettered
     * at once, the others retried) and {@code limit} the size of the next try (smaller than the batch: halved); with
     * {@link Action#HOLD_ASIDE}, {@code ownFailure} says whether this failure counts toward {@code max-attempts}.
     */
    public record Decision(Action action, int limit, long delayMillis, boolean ownFailure,
            List<QueuedEvent> deadLetter, String reason) {

        static Decision split(int limit) {
            return new Decision(Action.SPLIT, limit, 0, false, List.of(), null);
        }

        static Decision waitFor(long delayMillis) {
            return new Decision(Action.WAIT, 0, delayMillis, false, List.of(), null);
        }

        static Decision deadLetter(List<QueuedEvent> events, String reason) {
            return new Decision(Action.DEAD_LETTER, 0, 0, false, List.copyOf(events), reason);
        }
    }

    /**
     * A success this recent says the origin is accepting batches even if one failed since (a busy origin with one
     * tenant it always fails must not hide a poison in another tenant's queue).
     */
    static final long RECENT_SUCCESS_MILLIS = 5_000;

    /**
     * What the drainer knows when the answer comes: the origin's last success and the last failure of a batch other
     * than an isolation try (epoch ms, 0 for never); whether this batch was an isolation try (a halving in progress,
     * or a held event sent alone); whether it was the probe (the first batch after an event was held aside); and
     * whether the tenant's batches fail as a whole (a probe failed, and none of its batches was accepted since).
     */
    public record Context(long originLastSuccess, long originLastFailure, boolean isolating, boolean probe,
            boolean tenantFailing, long nowMillis) {

        public Context(long originLastSuccess, long originLastFailure, boolean isolating, long nowMillis) {
            this(originLastSuccess, originLastFailure, isolating, false, false, nowMillis);
        }

        /** The origin accepted the last batch it answered, or one a moment ago (or has not answered any yet). */
        boolean originHealthy() {
            return originLastSuccess >= originLastFailure || nowMillis - originLastSuccess <= RECENT_SUCCESS_MILLIS;
        }
    }

    private final BackoffPolicy backoff;
    private final int maxAttempts;
    private final long maxAgeMillis;
    private final long breakerDelayMillis;

    public FailurePolicy(BackoffPolicy backoff, int maxAttempts, Duration maxAge, Duration breakerDelay) {
        this.backoff = backoff;
        this.maxAttempts = maxAttempts;
        this.maxAgeMillis = maxAge.toMillis();
        this.breakerDelayMillis = breakerDelay.toMillis();
    }

    /** How the drainer reads an answer; {@code circuitOpen} is set when the batch was never sent. */
    public static Verdict classify(OriginResponse response, boolean circuitOpen) {
        if (circuitOpen) {
            return Verdict.CIRCUIT_OPEN;
        }
        if (response.success()) {
            return Verdict.DELIVERED;
        }
        if (response.refused()) {
            return Verdict.REFUSED;
        }
        int status = response.status();
        if (status == 0) {
            return response.unreachable() ? Verdict.UNAVAILABLE : Verdict.SUSPECT;
        }
        return status >= 500 && status != 503 ? Verdict.SUSPECT : Verdict.UNAVAILABLE;
    }

    /** The decision for a batch the origin did not take (any verdict but {@link Verdict#DELIVERED}). */
    public Decision onFailure(List<QueuedEvent> batch, OriginResponse response, Verdict verdict, Context context) {
        return switch (verdict) {
            case CIRCUIT_OPEN -> Decision.waitFor(breakerDelayMillis);
            case REFUSED -> batch.size() > 1
                    ? Decision.split(batch.size() / 2)
                    : Decision.deadLetter(batch, "refused by origin: " + response.error());
            case SUSPECT -> suspect(batch, response, context);
            case UNAVAILABLE -> retry(batch, response, context.nowMillis());
            case DELIVERED -> throw new IllegalArgumentException("a delivered batch is not a failure");
        };
    }

    private Decision suspect(List<QueuedEvent> batch, OriginResponse response, Context context) {
        if (!isolating(batch, context)) {
            return context.probe() || context.tenantFailing()
                    ? spaced(batch, response, context.nowMillis())
                    : retry(batch, response, context.nowMillis()); // the origin fails others too: not this batch
        }
        return batch.size() > 1 ? Decision.split(batch.size() / 2) : failedAlone(batch, response, context);
    }

    /** A halving goes on, a held event is tried alone, or the origin looks healthy for a batch that is no probe. */
    private static boolean isolating(List<QueuedEvent> batch, Context context) {
        boolean heldAlone = batch.size() == 1 && batch.get(0).heldAside();
        return context.isolating() || heldAlone
                || (context.originHealthy() && !context.probe() && !context.tenantFailing());
    }

    /** One event failed alone: held aside, its failure counted when the origin accepted another batch since. */
    private Decision failedAlone(List<QueuedEvent> batch, OriginResponse response, Context context) {
        QueuedEvent first = batch.get(0);
        boolean own = first.heldAside() && !context.tenantFailing()
                && context.originLastSuccess() > first.isolatedAtMillis();
        int failures = first.failures() + (own ? 1 : 0);
        if (failures >= maxAttempts) {
            return Decision.deadLetter(batch, "failed alone " + failures + " times while the origin accepted other "
                    + "batches (buffer.delivery.max-attempts): " + response.error());
        }
        if (tooOld(first, context.nowMillis())) {
            return Decision.deadLetter(batch, tooOldReason(response));
        }
        long delay = backoff.delayMillis(first.waits() + 1, response.retryAfterMillis());
        return new Decision(Action.HOLD_ASIDE, 1, delay, own, List.of(), null);
    }

    /**
     * The tenant's events fail and none of its batches was accepted since an event was held aside: either the origin
     * fails this tenant, or poisons follow one another. Without evidence nothing is counted, but the halving goes on,
     * one step per backoff: the next try carries half the batch (nothing past {@code max-age} is dead-lettered from a
     * batch whose halves have not been told apart), and an event that fails alone is held aside, uncounted, so the
     * events behind it are tried. One accepted batch ends it. An origin that fails all of the tenant's batches costs
     * one try per backoff, as any outage, and holds one event aside per halving (log2 of the batch size backoffs).
     */
    private Decision spaced(List<QueuedEvent> batch, OriginResponse response, long now) {
        QueuedEvent first = batch.get(0);
        long delay = backoff.delayMillis(first.waits() + 1, response.retryAfterMillis());
        if (batch.size() > 1) {
            return new Decision(Action.RETRY, batch.size() / 2, delay, false, List.of(), null);
        }
        if (tooOld(first, now)) {
            return Decision.deadLetter(batch, tooOldReason(response));
        }
        return new Decision(Action.HOLD_ASIDE, 1, delay, false, List.of(), null);
    }

    private Decision retry(List<QueuedEvent> batch, OriginResponse response, long now) {
        List<QueuedEvent> expired = new ArrayList<>();
        for (QueuedEvent e : batch) {
            if (tooOld(e, now)) {
                expired.add(e);
            }
        }
        long delay = backoff.delayMillis(batch.get(0).waits() + 1, response.retryAfterMillis());
        return new Decision(Action.RETRY, batch.size(), delay, false, expired,
                expired.isEmpty() ? null : tooOldReason(response));
    }

    private boolean tooOld(QueuedEvent e, long now) {
        return now - e.deliverableSinceMillis() > maxAgeMillis;
    }

    private String tooOldReason(OriginResponse response) {
        return "deliverable for longer than buffer.delivery.max-age (" + Duration.ofMillis(maxAgeMillis)
                + ") and still failing: "
                + response.error();
    }
}
