package io.webhookbuffer.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.Cancellable;
import io.smallrye.mutiny.subscription.UniEmitter;

/**
 * Permits in arrival order, and never lost: a caller that gives up (its subscriber cancels, as a drain step's time-out
 * does) while it waits or while it runs leaves no permit behind (issue 40's slot leak).
 */
class FifoPermitsTests {

    /** Work that ends when the test says so; {@code started} counts the works that began. */
    private static final class Works {
        final List<UniEmitter<? super String>> started = new ArrayList<>();
        final AtomicInteger cancelled = new AtomicInteger();

        Uni<String> next() {
            return Uni.createFrom().<String>emitter(started::add).onCancellation().invoke(cancelled::incrementAndGet);
        }
    }

    @Test
    void aWaiterThatGaveUpNeverReceivesThePermit() {
        FifoPermits permits = new FifoPermits(1);
        Works works = new Works();
        permits.withPermit(works::next).subscribe().with(v -> {
        });
        AtomicBoolean dead = new AtomicBoolean();
        Cancellable gaveUp = permits.withPermit(works::next).subscribe().with(v -> dead.set(true));
        AtomicBoolean live = new AtomicBoolean();
        permits.withPermit(works::next).subscribe().with(v -> live.set(true));

        gaveUp.cancel();
        assertEquals(1, permits.waiting(), "the waiter that gave up left the queue");
        works.started.get(0).complete("first");

        assertEquals(2, works.started.size(), "the permit went to the next live waiter");
        works.started.get(1).complete("third");
        assertTrue(live.get());
        assertFalse(dead.get());
        assertEquals(0, permits.inUse(), "and came back when its work ended");
        assertEquals(0, permits.waiting());
    }

    @Test
    void aHolderThatGaveUpGivesThePermitBackAndItsWorkIsCancelled() {
        FifoPermits permits = new FifoPermits(1);
        Works works = new Works();
        Cancellable holder = permits.withPermit(works::next).subscribe().with(v -> {
        });
        AtomicBoolean next = new AtomicBoolean();
        permits.withPermit(works::next).subscribe().with(v -> next.set(true));

        holder.cancel();

        assertEquals(1, works.cancelled.get(), "the work of the caller that gave up is cancelled");
        assertEquals(2, works.started.size(), "its permit went to the waiter");
        works.started.get(1).complete("second");
        assertTrue(next.get());
        assertEquals(0, permits.inUse());
    }

    @Test
    void permitsGoInArrivalOrderAndFailuresGiveThemBack() {
        FifoPermits permits = new FifoPermits(2);
        List<String> order = new ArrayList<>();
        Works works = new Works();
        for (int i = 0; i < 5; i++) {
            String name = "w" + i;
            permits.withPermit(works::next).subscribe().with(order::add, f -> order.add(name + " failed"));
        }
        assertEquals(2, works.started.size());
        works.started.get(0).fail(new IllegalStateException("origin down"));
        works.started.get(1).complete("w1");
        works.started.get(2).complete("w2");
        works.started.get(3).complete("w3");
        works.started.get(4).complete("w4");
        assertEquals(List.of("w0 failed", "w1", "w2", "w3", "w4"), order);
        assertEquals(0, permits.inUse());
        FifoPermits throwing = new FifoPermits(1);
        throwing.withPermit(() -> {
            throw new IllegalArgumentException("bad work");
        }).subscribe().with(v -> {
        }, f -> {
        });
        assertEquals(0, throwing.inUse(), "work that throws gives its permit back");
    }

    @Test
    void aPermitGivenBackEarlyGoesOnOnceAndTheWorkStillEnds() {
        FifoPermits permits = new FifoPermits(1);
        Works works = new Works();
        List<Runnable> giveBacks = new ArrayList<>();
        AtomicBoolean first = new AtomicBoolean();
        permits.<String>withReleasablePermit(giveBack -> {
            giveBacks.add(giveBack);
            return works.next();
        }).subscribe().with(v -> first.set(true));
        permits.withPermit(works::next).subscribe().with(v -> {
        });
        permits.withPermit(works::next).subscribe().with(v -> {
        });

        giveBacks.get(0).run();
        giveBacks.get(0).run();
        assertEquals(2, works.started.size(), "the permit went to one waiter, once");
        assertEquals(1, permits.inUse());
        works.started.get(0).complete("first");
        assertTrue(first.get(), "the work that gave its permit back still completes");
        assertEquals(2, works.started.size(), "and its end gives nothing more back");
        works.started.get(1).complete("second");
        works.started.get(2).complete("third");
        assertEquals(0, permits.inUse());
    }

    @Test
    void aHolderThatGaveBackEarlyIsStillCancelledWithoutGivingTwice() {
        FifoPermits permits = new FifoPermits(1);
        Works works = new Works();
        List<Runnable> giveBacks = new ArrayList<>();
        Cancellable holder = permits.<String>withReleasablePermit(giveBack -> {
            giveBacks.add(giveBack);
            return works.next();
        }).subscribe().with(v -> {
        });
        giveBacks.get(0).run();
        permits.withPermit(works::next).subscribe().with(v -> {
        });

        holder.cancel();
        assertEquals(1, works.cancelled.get(), "the work is cancelled");
        assertEquals(1, permits.inUse(), "the permit the next caller holds is not given back by the cancel");
        works.started.get(1).complete("second");
        assertEquals(0, permits.inUse());
    }

    @Test
    void tryTakeTakesOnlyAFreePermitNobodyWaitsForAndGivesItBackOnce() {
        FifoPermits permits = new FifoPermits(2);
        Works works = new Works();
        Runnable taken = permits.tryTake();
        assertTrue(taken != null);
        permits.withPermit(works::next).subscribe().with(v -> {
        });
        assertEquals(null, permits.tryTake(), "none free");
        permits.withPermit(works::next).subscribe().with(v -> {
        });
        assertEquals(1, permits.waiting());

        taken.run();
        taken.run();
        assertEquals(2, works.started.size(), "the permit taken went to the waiter, once");
        assertEquals(2, permits.inUse());
        works.started.get(0).complete("a");
        works.started.get(1).complete("b");
        assertEquals(0, permits.inUse());
        Runnable again = permits.tryTake();
        assertTrue(again != null, "free again");
        again.run();
        assertEquals(0, permits.inUse());
    }

    /**
     * Releases, cancels of waiters and of holders on many threads at once: when everything has ended every permit is
     * free (a lost one would show as inUse &gt; 0 for good). A cancel is a request: a work already emitting may still
     * be ending when its permit moves on, so the limit itself is checked by the tests above, not here.
     */
    @Test
    void racingCancelsAndReleasesLoseNoPermit() throws Exception {
        int limit = 3;
        FifoPermits permits = new FifoPermits(limit);
        AtomicInteger cancels = new AtomicInteger();
        ExecutorService threads = Executors.newFixedThreadPool(8);
        int callers = 20_000;
        CountDownLatch settled = new CountDownLatch(callers);
        for (int i = 0; i < callers; i++) {
            threads.execute(() -> {
                Cancellable caller = permits.withPermit(() -> Uni.createFrom().item("done").onItem().delayIt()
                        .by(Duration.ofNanos(ThreadLocalRandom.current().nextInt(50_000))))
                        .onTermination().invoke(settled::countDown).subscribe().with(v -> {
                        }, f -> {
                        });
                if (ThreadLocalRandom.current().nextBoolean()) {
                    cancels.incrementAndGet();
                    caller.cancel(); // while it waits, runs, or just as its permit is handed over
                }
            });
        }
        assertTrue(settled.await(60, TimeUnit.SECONDS), "every caller ended or gave up");
        threads.shutdown();
        assertTrue(threads.awaitTermination(10, TimeUnit.SECONDS));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (permits.inUse() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(10); // delayed works still ending
        }
        assertEquals(0, permits.inUse(), "no permit lost");
        assertEquals(0, permits.waiting());
        assertTrue(cancels.get() > callers / 3, "the race was run: " + cancels.get() + " cancels");
    }
}
