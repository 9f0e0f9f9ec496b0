package io.webhookbuffer.delivery;

import java.util.ArrayList;
import java.util.List;

import io.webhookbuffer.queue.QueuedEvent;

/**
 * Which of a tenant's oldest rows go in the next batch, as a pure function of the rows and the time. FIFO: rows in id
 * order, stopping at the first row that is not due yet (a failed batch waits out its backoff before anything behind
 * it goes). The exception is an event held aside (it failed alone, see {@link FailurePolicy}): while it waits it is
 * skipped, so the events behind it go on; when due it is sent alone, never with others.
 */
final class BatchPlanner {

    /** The batch to send (empty: none now), or the time to look again. */
    record Plan(List<QueuedEvent> batch, long waitUntilMillis) {
    }

    private BatchPlanner() {
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
