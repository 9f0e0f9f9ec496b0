package io.webhookbuffer.usage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/** A tenant that counts nothing for a flush interval leaves the map; no count is lost on the way (issue 40). */
class UsageCountersTests {

    @Test
    void anIdleTenantsTallyIsDroppedAfterAFlushWithNothingToTake() {
        UsageCounters counters = new UsageCounters();
        counters.add("a", UsageMetric.RECEIVED, 3);
        List<UsageCounters.Counts> first = counters.drain();
        assertEquals(1, first.size());
        assertEquals(3, first.get(0).get(UsageMetric.RECEIVED));
        assertEquals(1, counters.tenants(), "kept while it counted in the last interval");

        assertTrue(counters.drain().isEmpty());
        assertEquals(0, counters.tenants(), "dropped after an interval with nothing counted");
    }

    @Test
    void aCountOnADroppedTallyIsTakenByTheNextDrainAsOneEntryPerTenant() {
        UsageCounters counters = new UsageCounters();
        UsageCounters.Tally held = counters.of("a"); // a request fetched it, and counts after the drain
        counters.drain();
        assertEquals(0, counters.tenants());

        held.increment(UsageMetric.RECEIVED);
        counters.add("a", UsageMetric.RECEIVED, 2); // a fresh tally for the same tenant

        List<UsageCounters.Counts> next = counters.drain();
        assertEquals(1, next.size(), "one entry per tenant: " + next);
        assertEquals(3, next.get(0).get(UsageMetric.RECEIVED));
        assertTrue(counters.drain().isEmpty(), "taken once, not twice");
    }

    @Test
    void countsRacingWithDrainsAreAllTakenExactlyOnce() throws Exception {
        UsageCounters counters = new UsageCounters();
        ExecutorService threads = Executors.newFixedThreadPool(4);
        int each = 200_000;
        for (int t = 0; t < 4; t++) {
            String tenant = "t" + (t % 2);
            threads.execute(() -> {
                for (int i = 0; i < each; i++) {
                    UsageCounters.Tally tally = counters.of(tenant);
                    tally.increment(UsageMetric.RECEIVED);
                    if (i % 1000 == 0) {
                        Thread.yield(); // let drains find the tally idle now and then
                    }
                }
            });
        }
        threads.shutdown();
        long total = 0;
        while (!threads.awaitTermination(1, TimeUnit.MILLISECONDS)) {
            total += sum(counters.drain());
        }
        total += sum(counters.drain());
        total += sum(counters.drain());
        assertEquals(4L * each, total);
    }

    private static long sum(List<UsageCounters.Counts> counts) {
        return counts.stream().mapToLong(c -> c.get(UsageMetric.RECEIVED)).sum();
    }
}
