package io.webhookbuffer.ingress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

/** The replica's budget for bodies in flight, without Quarkus: all or nothing, never past the limit. */
class InFlightBytesTests {

    @Test
    void takesUpToTheLimitAndNothingOfARequestThatDoesNotFit() {
        InFlightBytes budget = new InFlightBytes(100);
        assertTrue(budget.tryTake(60));
        assertFalse(budget.tryTake(41), "41 more would pass the limit");
        assertEquals(60, budget.held(), "a refused request takes nothing");
        assertTrue(budget.tryTake(40));
        assertEquals(100, budget.held());
        budget.giveBack(60);
        assertTrue(budget.tryTake(60));
        assertFalse(budget.tryTake(1));
    }

    @Test
    void concurrentTakersNeverPassTheLimit() throws Exception {
        InFlightBytes budget = new InFlightBytes(1000);
        AtomicInteger taken = new AtomicInteger();
        ExecutorService threads = Executors.newFixedThreadPool(8);
        for (int i = 0; i < 8; i++) {
            threads.submit(() -> {
                for (int j = 0; j < 10_000; j++) {
                    if (budget.tryTake(7)) {
                        taken.incrementAndGet();
                    }
                }
            });
        }
        threads.shutdown();
        assertTrue(threads.awaitTermination(30, TimeUnit.SECONDS));
        assertEquals(1000 / 7, taken.get(), "exactly as many 7-byte takes as fit");
        assertEquals(1000 / 7 * 7, budget.held());
    }
}
