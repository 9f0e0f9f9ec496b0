package io.webhookbuffer.common;

import java.util.ArrayDeque;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Supplier;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.Cancellable;
import io.smallrye.mutiny.subscription.UniEmitter;

/**
 * At most {@code limit} holders at once; the rest wait in arrival order, and a released permit goes straight to the
 * longest live waiter. Non-blocking. The monitor guards two fields for nanoseconds; nothing blocks while holding it.
 * Used for the delivery bulkhead and for tenant-cache refreshes.
 *
 * <p>Work runs inside {@link #withPermit}, which takes the permit, runs the work and gives the permit back however the
 * work ends, including when its subscriber cancels (a caller's time-out) while it waits or while it runs. A separate
 * acquire and release cannot promise that: a permit handed to a waiter at the moment its subscriber cancelled reaches
 * nobody who would release it, and each such loss shrinks the limit for good (issue 40: a drain step that timed out
 * waiting for a delivery slot leaked the slot).
 *
 * <p>Two ways round that rule, both for the delivery's slow lane: {@link #withReleasablePermit} lets the work give its
 * permit back before it ends, and {@link #tryTake} takes a free permit without waiting, for a caller that ties its
 * release to the end of work it already runs.
 */
public final class FifoPermits {

    private final int limit;
    // @protectedby: this
    private int used;
    // @protectedby: this
    private final ArrayDeque<Holder<?>> waiting = new ArrayDeque<>();

    public FifoPermits(int limit) {
        this.limit = limit;
    }

    /**
     * Runs {@code work} once a permit is ours and completes with its outcome; the permit is given back when the work
     * ends or the subscriber cancels, whichever comes first. A cancelled waiter leaves the queue and gets nothing.
     */
    public <T> Uni<T> withPermit(Supplier<Uni<T>> work) {
        return withReleasablePermit(giveBack -> work.get());
    }

    /**
     * As {@link #withPermit}, and the work is handed a callback that gives the permit back before the work ends (the
     * first call does; later calls, and the work's end, give nothing more back). Cancelling still cancels the work.
     */
    public <T> Uni<T> withReleasablePermit(Function<Runnable, Uni<T>> work) {
        return Uni.createFrom().emitter(emitter -> {
            Holder<T> holder = new Holder<>(emitter, work);
            emitter.onTermination(holder::terminated);
            boolean now;
            synchronized (this) {
                now = used < limit;
                if (now) {
                    used++;
                } else {
                    waiting.add(holder);
                }
            }
            if (now && holder.take()) {
                holder.run();
            } else if (now) {
                release(); // cancelled before it began
            }
        });
    }

    /** Hands the permit to the longest live waiter, or frees it. */
    private void release() {
        while (true) {
            Holder<?> next;
            synchronized (this) {
                next = waiting.poll();
                if (next == null) {
                    used--;
                    return;
                }
            }
            if (next.take()) {
                next.run();
                return;
            }
            // that waiter was cancelled as we polled it: the permit goes on to the next one
        }
    }

    /**
     * A permit now, if one is free and nobody waits for one (a caller that waits is never overtaken), or null. The
     * caller gives it back by running the returned callback (idempotent) however its work ends, cancellation
     * included: tie it to that end at once.
     */
    public Runnable tryTake() {
        synchronized (this) {
            if (used >= limit || !waiting.isEmpty()) {
                return null;
            }
            used++;
        }
        AtomicBoolean given = new AtomicBoolean();
        return () -> {
            if (given.compareAndSet(false, true)) {
                release();
            }
        };
    }

    private synchronized boolean leave(Holder<?> holder) {
        return waiting.remove(holder);
    }

    public synchronized int inUse() {
        return used;
    }

    public synchronized int waiting() {
        return waiting.size();
    }

    /**
     * One caller's turn: WAITING, then RUNNING once it holds a permit, then DONE (the permit given back exactly once),
     * or CANCELLED from WAITING (it never held one). RELEASED: still running, the permit given back early by the work;
     * it ends in DONE without giving anything more. Each move is a compare-and-set, so a release and a cancel that race
     * agree on who gives the permit back.
     */
    private final class Holder<T> {
        private static final int WAITING = 0;
        private static final int RUNNING = 1;
        private static final int DONE = 2;
        private static final int CANCELLED = 3;
        private static final int RELEASED = 4;

        private final UniEmitter<? super T> emitter;
        private final Function<Runnable, Uni<T>> work;
        private final AtomicInteger state = new AtomicInteger(WAITING);
        private volatile Cancellable running;

        Holder(UniEmitter<? super T> emitter, Function<Runnable, Uni<T>> work) {
            this.emitter = emitter;
            this.work = work;
        }

        /** The permit is ours, unless the subscriber cancelled first. */
        boolean take() {
            return state.compareAndSet(WAITING, RUNNING);
        }

        void run() {
            Uni<T> uni;
            try {
                uni = work.apply(this::giveBackEarly);
            } catch (RuntimeException e) {
                finish();
                emitter.fail(e);
                return;
            }
            running = uni.subscribe().with(item -> {
                finish();
                emitter.complete(item);
            }, failure -> {
                finish();
                emitter.fail(failure);
            });
            if (state.get() == DONE) {
                running.cancel(); // cancelled while it was being subscribed
            }
        }

        /** The work ended: the permit goes back (before the outcome is passed on, so the next waiter starts). */
        private void finish() {
            if (state.compareAndSet(RUNNING, DONE)) {
                release();
            } else {
                state.compareAndSet(RELEASED, DONE);
            }
        }

        /** The work gave its permit back while it goes on; at its end nothing more is given back. */
        private void giveBackEarly() {
            if (state.compareAndSet(RUNNING, RELEASED)) {
                release();
            }
        }

        /** The emitter ended: after our own outcome (nothing left to do) or because the subscriber cancelled. */
        void terminated() {
            if (state.compareAndSet(WAITING, CANCELLED)) {
                leave(this); // if a release polled it meanwhile, its take() fails and the permit goes on
            } else if (state.compareAndSet(RUNNING, DONE)) {
                cancelWork();
                release();
            } else if (state.compareAndSet(RELEASED, DONE)) {
                cancelWork(); // its permit is already back
            }
        }

        private void cancelWork() {
            Cancellable current = running;
            if (current != null) {
                current.cancel();
            }
        }
    }
}
