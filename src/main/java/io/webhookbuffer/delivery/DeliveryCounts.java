package io.webhookbuffer.delivery;

import java.util.concurrent.atomic.LongAdder;

import io.webhookbuffer.usage.UsageCounters;
import io.webhookbuffer.usage.UsageMetric;

/** What this replica delivered, dead-lettered and failed (the metrics read the sums), with each tenant's usage. */
final class DeliveryCounts {

    private final UsageCounters usage;
    private final LongAdder delivered = new LongAdder();
    private final LongAdder deadLettered = new LongAdder();
    private final LongAdder failedBatches = new LongAdder();

    DeliveryCounts(UsageCounters usage) {
        this.usage = usage;
    }

    void delivered(String tenantId, int events) {
        delivered.add(events);
        usage.add(tenantId, UsageMetric.DELIVERED, events);
    }

    void deadLettered(String tenantId, int events) {
        deadLettered.add(events);
        usage.add(tenantId, UsageMetric.DEAD_LETTERED, events);
    }

    /** A batch the origin did not take (one the breaker turned away was not sent, and is not counted). */
    void failedBatch() {
        failedBatches.increment();
    }

    long delivered() {
        return delivered.sum();
    }

    long deadLettered() {
        return deadLettered.sum();
    }

    long failedBatches() {
        return failedBatches.sum();
    }
}
