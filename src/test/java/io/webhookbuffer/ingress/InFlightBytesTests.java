package io.webhookbuffer.ingress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

/**
 * The replica's budget for bodies in flight, without Quarkus: all or nothing, never past the limit, and a tenant's
 * share at most half of what the others leave.
 */
class InFlightBytesTests {

    @Test
    void aTenantAloneHoldsAtMostHalfAndNothingOfATakeThatDoesNotFit() {
        InFlightBytes budget = new InFlightBytes(100);
        assertTrue(budget.tryTake("a", 30));
        assertFalse(budget.tryTake("a", 21), "51 would pass half of 100");
        assertEquals(30, budget.held(), "a refused take takes nothing");
        assertTrue(budget.tryTake("a", 20));
        assertEquals(50, budget.heldBy("a"));
        budget.giveBack("a", 30);
        assertEquals(20, budget.heldBy("a"));
        assertTrue(budget.tryTake("a", 30));
        assertFalse(budget.tryTake("a", 1));
    }

    @Test
    void eachTenantGetsHalfOfWhatTheOthersLeaveSoSomethingIsAlwaysLeft() {
        InFlightBytes budget = new InFlightBytes(1024);
        assertTrue(budget.tryTake("a", 512));
        assertFalse(budget.tryTake("b", 257), "b may take half of the 512 a leaves");
        assertTrue(budget.tryTake("b", 256));
        assertTrue(budget.tryTake("c", 128));
        assertTrue(budget.tryTake("d", 64));
        assertEquals(960, budget.held());
        assertTrue(budget.tryTake("e", 32), "a fifth tenant still has its share");
        assertEquals(5, budget.tenants());
    }

    @Test
    void aTenantThatHoldsNothingLeavesNoEntry() {
        InFlightBytes budget = new InFlightBytes(100);
        assertTrue(budget.tryTake("a", 10));
        assertTrue(budget.tryTake("b", 10));
        budget.giveBack("a", 10);
        budget.giveBack("b", 4);
        assertEquals(1, budget.tenants());
        assertEquals(6, budget.held());
        budget.giveBack("b", 6);
        assertEquals(0, budget.tenants());
        assertEquals(0, budget.held());
    }

    @Test
    void concurrentTakersNeverPassTheirShare() throws Exception {
        InFlightBytes budget = new InFlightBytes(1000);
        AtomicInteger taken = new AtomicInteger();
        ExecutorService threads = Executors.newFixedThreadPool(8);
        for (int i = 0; i < 8; i++) {
            threads.submit(() -> {
                for (int j = 0; j < 10_000; j++) {
                    if (budget.tryTake("a", 7)) {
                        taken.incrementAndGet();
                    }
                }
            });
        }
        threads.shutdown();
        assertTrue(threads.awaitTermination(30, TimeUnit.SECONDS));
        assertEquals(500 / 7, taken.get(), "exactly as many 7-byte takes as fit in half");
        assertEquals(500 / 7 * 7, budget.held());
    }
}
