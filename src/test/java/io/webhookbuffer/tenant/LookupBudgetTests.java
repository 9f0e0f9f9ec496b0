package io.webhookbuffer.tenant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;

/** The miss budget's rules, with a hand-driven clock and hand-fired wait deadlines. */
class LookupBudgetTests {

    private final AtomicLong now = new AtomicLong(1_000_000_000L);
    private final List<Runnable> deadlines = new ArrayList<>();
    private final AtomicInteger started = new AtomicInteger();

    private LookupBudget budget(int concurrent, int waiting, int perSecond) {
        return new LookupBudget("test", concurrent, waiting, Duration.ofMillis(100), perSecond, now::get,
                (delay, task) -> deadlines.add(task));
    }

    /** A lookup that counts its start and completes when the test says. */
    private CompletableFuture<String> pendingLookup(List<CompletableFuture<String>> handles) {
        started.incrementAndGet();
        CompletableFuture<String> f = new CompletableFuture<>();
        handles.add(f);
        return f;
    }

    @Test
    void beyondTheConcurrencyBoundLookupsWaitInOrderAndStartAsOthersEnd() throws Exception {
        LookupBudget budget = budget(2, 2, 0);
        List<CompletableFuture<String>> handles = new ArrayList<>();
        List<CompletableFuture<String>> results = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            results.add(budget.submit(() -> pendingLookup(handles)));
        }
        assertEquals(2, started.get(), "two run, two wait");
        assertEquals(2, budget.waiting());

        handles.get(0).complete("a");
        assertEquals("a", results.get(0).get());
        assertEquals(3, started.get(), "the first waiter took the freed slot");
        handles.get(2).complete("c");
        assertEquals("c", results.get(2).get());
        assertEquals(2, budget.running());
    }

    @Test
    void aFullQueueIsRefusedAtOnceWithoutALookup() {
        LookupBudget budget = budget(1, 1, 0);
        List<CompletableFuture<String>> handles = new ArrayList<>();
        budget.submit(() -> pendingLookup(handles));
        budget.submit(() -> pendingLookup(handles));
        CompletableFuture<String> third = budget.submit(() -> pendingLookup(handles));

        assertRefused(third);
        assertEquals(1, started.get());
    }

    @Test
    void aWaiterWhoseTimeRanOutIsRefusedAndItsLookupNeverRuns() {
        LookupBudget budget = budget(1, 4, 0);
        List<CompletableFuture<String>> handles = new ArrayList<>();
        budget.submit(() -> pendingLookup(handles));
        CompletableFuture<String> waiter = budget.submit(() -> pendingLookup(handles));

        deadlines.forEach(Runnable::run); // its 100 ms are over
        assertRefused(waiter);
        handles.get(0).complete("done");
        assertEquals(1, started.get(), "the expired waiter's lookup did not run when the slot freed");
        assertEquals(0, budget.running());
    }

    @Test
    void aDeadlineAfterTheWaiterStartedChangesNothing() throws Exception {
        LookupBudget budget = budget(1, 4, 0);
        List<CompletableFuture<String>> handles = new ArrayList<>();
        budget.submit(() -> pendingLookup(handles));
        CompletableFuture<String> waiter = budget.submit(() -> pendingLookup(handles));
        handles.get(0).complete("first");
        deadlines.forEach(Runnable::run);
        handles.get(1).complete("second");

        assertEquals("second", waiter.get());
    }

    @Test
    void theRateAdmitsOneSecondsWorthAtOnceThenRefillsWithTime() {
        LookupBudget budget = budget(1000, 0, 10);
        int admitted = 0;
        for (int i = 0; i < 25; i++) {
            if (!budget.submit(() -> CompletableFuture.completedFuture("x")).isCompletedExceptionally()) {
                admitted++;
            }
        }
        assertEquals(10, admitted, "a burst of one second's worth");

        now.addAndGet(Duration.ofMillis(500).toNanos());
        admitted = 0;
        for (int i = 0; i < 25; i++) {
            if (!budget.submit(() -> CompletableFuture.completedFuture("x")).isCompletedExceptionally()) {
                admitted++;
            }
        }
        assertEquals(5, admitted, "half a second refills half");
    }

    @Test
    void aFailedLookupFreesItsSlotAndFailsItsCaller() {
        LookupBudget budget = budget(1, 0, 0);
        CompletableFuture<String> failed = budget.submit(() -> CompletableFuture.failedFuture(new IllegalStateException("db")));
        CompletableFuture<String> thrown = budget.submit(() -> {
            throw new IllegalStateException("no connection");
        });

        ExecutionException e = Assertions.assertThrows(ExecutionException.class, failed::get);
        assertInstanceOf(IllegalStateException.class, e.getCause());
        assertTrue(thrown.isCompletedExceptionally());
        assertFalse(budget.submit(() -> CompletableFuture.completedFuture("ok")).isCompletedExceptionally(),
                "both slots were given back");
    }

    /**
     * The production budget's wait deadlines ({@link LookupBudget#of}) start no thread each. They ran on the
     * CompletableFuture async pool, which is a new thread per task where the common pool has fewer than two workers
     * (two cores or fewer: this machine, a pod of k8s/): every miss that waited for its turn under a flood of unknown
     * ids started a thread when its deadline came (3,387 in one abuse run, seen failing here: 100 for 100).
     */
    @Test
    void theRealDeadlinesStartNoThreadPerWaiter() throws Exception {
        LookupBudget real = LookupBudget.of("test", 1, 200, Duration.ofMillis(20), 1_000_000);
        CompletableFuture<String> never = new CompletableFuture<>();
        real.submit(() -> never); // holds the one slot: every later lookup waits, then its deadline refuses it
        real.submit(() -> never).handle((v, e) -> null).get(5, TimeUnit.SECONDS); // the delay thread starts once
        long before = ManagementFactory.getThreadMXBean().getTotalStartedThreadCount();
        List<CompletableFuture<String>> waiting = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            waiting.add(real.submit(() -> never));
        }
        CompletableFuture.allOf(waiting.toArray(CompletableFuture[]::new)).handle((v, e) -> null)
                .get(10, TimeUnit.SECONDS);
        long threads = ManagementFactory.getThreadMXBean().getTotalStartedThreadCount() - before;
        waiting.forEach(LookupBudgetTests::assertRefused);
        assertTrue(threads < 20, threads + " threads started for 100 wait deadlines");
    }

    private static void assertRefused(CompletableFuture<?> result) {
        assertTrue(result.isCompletedExceptionally());
        try {
            result.join();
        } catch (CancellationException e) {
            assertInstanceOf(LookupRefused.class, e);
            return;
        }
        throw new AssertionError("not refused");
    }
}
