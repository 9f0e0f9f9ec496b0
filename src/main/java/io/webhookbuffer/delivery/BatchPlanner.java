package io.webhookbuffer.delivery;

import java.util.ArrayList;
import java.util.List;

import io.webhookbuffer.queue.QueuedEvent;

/**
 * Which of a tenant's oldest rows go in the next batch, and when, as pure functions of the rows and the time. FIFO:
 * rows in id order, stopping at the first row that is not due yet (a failed batch waits out its backoff before
 * anything behind it goes), and at the byte cap. The exception is an event held aside (it failed alone, see
 * {@link FailurePolicy}): while it waits it is skipped, so the events behind it go on; when due it is sent alone,
 * never with others. Then linger (a first try that is not full waits for its batch to fill) and pacing (a delivery
 * rate cuts the batch and spaces the next one).
 */
final class BatchPlanner {

    /** The batch to send (empty: none now), or the time to look again. */
    record Plan(List<QueuedEvent> batch, long waitUntilMillis) {
    }

    private BatchPlanner() {
    }

    /** A batch cut to a delivery rate, and the time before which the next batch may not go. */
    record Paced(List<QueuedEvent> batch, long paceUntilMillis) {
    }

    /**
     * {@link #select}, then linger: a batch that is a first try and smaller than {@code limit} waits until its oldest
     * event is {@code lingerMillis} old, so a steady trickle reaches the origin in fuller batches instead of one
     * request per event.
     *
     * @param head the tenant's oldest rows in id order (not empty), at most as many as the drainer reads
     */
    static Plan plan(List<QueuedEvent> head, int limit, long maxBytes, long lingerMillis, long nowMillis) {
        Plan plan = select(head, limit, maxBytes, nowMillis);
        if (plan.batch().isEmpty()) {
            return plan;
        }
        QueuedEvent first = plan.batch().get(0);
        long fullEnough = first.receivedAtMillis() + lingerMillis;
        if (head.size() < limit && fullEnough > nowMillis && first.attempts() == 0) {
            return new Plan(List.of(), fullEnough); // let the batch fill
        }
        return plan;
    }

    /**
     * With a delivery rate r (events per second), a batch carries at most r events (one second's worth) and the next
     * batch waits until the events just sent have used up their share of time: n events, then n / r seconds.
     */
    static Paced pace(List<QueuedEvent> batch, int rate, long nowMillis) {
        return pace(batch, rate, 1, nowMillis);
    }

    /**
     * The same for a pace of {@code events} per {@code perSeconds} (a rate limit of 10 per 10 s is 1 per second): a
     * batch carries one second's worth, at least one event, and the next waits n x perSeconds / events seconds. So in
     * any span of the limit's window the origin gets at most the limit, plus the one batch sent at the span's start.
     */
    static Paced pace(List<QueuedEvent> batch, int events, int perSeconds, long nowMillis) {
        int perBatch = Math.max(1, events / perSeconds);
        List<QueuedEvent> limited = batch.size() > perBatch ? batch.subList(0, perBatch) : batch;
        return new Paced(limited, nowMillis + limited.size() * 1000L * perSeconds / events);
    }

    /**
     * @param head the tenant's oldest rows in id order (not empty)
     * @param limit most events in the batch
     * @param maxBytes most raw-body bytes in the batch (a batch always carries at least one event)
     */
    static Plan select(List<QueuedEvent> head, int limit, long maxBytes, long nowMillis) {
        List<QueuedEvent> batch = new ArrayList<>(Math.min(limit, head.size()));
        long earliest = Long.MAX_VALUE;
        long bytes = 0;
        for (QueuedEvent e : head) {
            boolean due = e.dueAtMillis() <= nowMillis;
            if (e.heldAside()) {
                if (!due) {
                    earliest = Math.min(earliest, e.dueAtMillis());
                    continue; // waits aside: the events behind it go on
                }
                if (batch.isEmpty()) {
                    batch.add(e); // due: alone
                }
                break;
            }
            if (!due) {
                earliest = Math.min(earliest, e.dueAtMillis());
                break;
            }
            bytes += e.body().length;
            if (batch.size() == limit || (!batch.isEmpty() && bytes > maxBytes)) {
                break;
            }
            batch.add(e);
        }
        return new Plan(batch, batch.isEmpty() ? earliest : 0);
    }
}
