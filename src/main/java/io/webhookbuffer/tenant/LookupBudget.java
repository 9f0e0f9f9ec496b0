package io.webhookbuffer.tenant;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * A budget for lookups that leave the replica (a query for an id the cache does not hold; a question to the origin):
 * at most {@code maxConcurrent} at once, at most {@code maxWaiting} more waiting in arrival order for at most
 * {@code maxWait} each, and (when {@code perSecond > 0}) at most {@code perSecond} admitted a second with a burst of one
 * second's worth. What does not fit is refused at once with {@link LookupRefused}, and a waiter whose time ran out is
 * refused without its lookup ever starting: a refusal never costs the lookup it refused.
 *
 * <p>Why not SmallRye Fault Tolerance's bulkhead: its asynchronous queue has no deadline per waiter, and a timeout put
 * around it fails the caller but leaves the task queued, so it still runs its lookup later, for nobody; under a flood
 * that is exactly the work the budget exists to refuse. This class holds one monitor for a few field updates; nothing
 * blocks under it, and a lookup starts (and its callbacks run) outside it, on the thread that admitted or released it.
 */
final class LookupBudget {

    /** Runs a task after a delay in nanoseconds, on some thread that may not block. */
    interface Timers {
        void after(long delayNanos, Runnable task);
    }

    private final String name;
    private final int maxConcurrent;
    private final int maxWaiting;
    private final long maxWaitNanos;
    private final double perSecond;
    private final LongSupplier nanoTime;
    private final Timers timers;
    // @protectedby: this
    private int running;
    // @protectedby: this
    private final ArrayDeque<Waiter<?>> waiting = new ArrayDeque<>();
    // @protectedby: this
    private double tokens;
    // @protectedby: this
    private long refilledAt;

    LookupBudget(String name, int maxConcurrent, int maxWaiting, Duration maxWait, int perSecond, LongSupplier nanoTime,
            Timers timers) {
        this.name = name;
        this.maxConcurrent = maxConcurrent;
        this.maxWaiting = maxWaiting;
        this.maxWaitNanos = maxWait.toNanos();
        this.perSecond = perSecond;
        this.nanoTime = nanoTime;
        this.timers = timers;
        this.tokens = perSecond;
        this.refilledAt = nanoTime.getAsLong();
    }

    /**
     * The budget with the JDK's shared delay scheduler for the waiters' deadlines, each run on that one thread (it only
     * completes a future): not on the CompletableFuture async pool, which where the common pool has fewer than two
     * workers (two CPUs or fewer seen by the JVM, as in a small pod) starts a thread per task: one per waiting miss.
     */
    static LookupBudget of(String name, int maxConcurrent, int maxWaiting, Duration maxWait, int perSecond) {
        return new LookupBudget(name, maxConcurrent, maxWaiting, maxWait, perSecond, System::nanoTime,
                (delay, task) -> CompletableFuture.delayedExecutor(delay, TimeUnit.NANOSECONDS, Runnable::run)
                        .execute(task));
    }

    /**
     * Runs the lookup now, or when a running one ends; or completes exceptionally with {@link LookupRefused} without running
     * it (over the rate, the queue full, or the wait over).
     */
    <T> CompletableFuture<T> submit(Supplier<? extends CompletionStage<T>> lookup) {
        Waiter<T> waiter = new Waiter<>(lookup);
        boolean start;
        String refused = null;
        synchronized (this) {
            start = running < maxConcurrent;
            if (!start && waiting.size() >= maxWaiting) {
                refused = name + ": " + maxConcurrent + " running and " + maxWaiting + " waiting";
            } else if (!takeToken()) {
                refused = name + ": over " + (long) perSecond + " a second";
            } else if (start) {
                running++;
            } else {
                waiting.add(waiter);
            }
        }
        if (refused != null) {
            waiter.result.completeExceptionally(new LookupRefused(refused));
        } else if (start) {
            run(waiter);
        } else {
            timers.after(maxWaitNanos, () -> expire(waiter));
        }
        return waiter.result;
    }

    /** Lookups running (for tests and diagnostics). */
    synchronized int running() {
        return running;
    }

    synchronized int waiting() {
        return waiting.size();
    }

    // @protectedby: this (called with the monitor held)
    private boolean takeToken() {
        if (perSecond <= 0) {
            return true;
        }
        long now = nanoTime.getAsLong();
        tokens = Math.min(perSecond, tokens + (now - refilledAt) * perSecond / 1e9);
        refilledAt = now;
        if (tokens < 1) {
            return false;
        }
        tokens--;
        return true;
    }

    private void expire(Waiter<?> waiter) {
        boolean removed;
        synchronized (this) {
            removed = waiting.remove(waiter);
        }
        if (removed) {
            waiter.result.completeExceptionally(new LookupRefused(name + ": no turn within " + maxWaitNanos / 1_000_000 + " ms"));
        }
    }

    private <T> void run(Waiter<T> waiter) {
        CompletionStage<T> stage;
        try {
            stage = waiter.lookup.get();
        } catch (RuntimeException e) {
            stage = CompletableFuture.failedFuture(e);
        }
        stage.whenComplete((value, failure) -> {
            release();
            if (failure != null) {
                waiter.result.completeExceptionally(failure);
            } else {
                waiter.result.complete(value);
            }
        });
    }

    /** The slot goes to the longest waiter, or is freed. */
    private void release() {
        Waiter<?> next;
        synchronized (this) {
            next = waiting.poll();
            if (next == null) {
                running--;
            }
        }
        if (next != null) {
            run(next);
        }
    }

    private static final class Waiter<T> {
        final Supplier<? extends CompletionStage<T>> lookup;
        final CompletableFuture<T> result = new CompletableFuture<>();

        Waiter(Supplier<? extends CompletionStage<T>> lookup) {
            this.lookup = lookup;
        }
    }
}
