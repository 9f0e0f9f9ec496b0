package io.webhookbuffer.actor;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.webhookbuffer.queue.StoreOutcome;
import io.webhookbuffer.ratelimit.LeasedWindow;
import io.webhookbuffer.ratelimit.LeasedWindow.Slot;

/**
 * A tenant's decision state machine: dedupe, then the queue quota, then rate limit, then write. Over the limit, a
 * tenant whose sender does not retry has the event written all the same (and paced on delivery), one whose sender
 * retries has it refused. Pure and not thread-safe: its actor runs it one message at a time, so no field needs a
 * lock. Tested with plain JUnit.
 *
 * <p>Dedupe in memory is an optimisation; the database's unique key stays the truth (a replica, a restart or an
 * evicted actor forgets, the database does not). A copy that arrives while the first is being written waits for
 * the first's outcome instead of writing again.
 *
 * @param <W> whatever a waiting duplicate is (the actor uses its reply future)
 */
final class TenantPipeline<W> {

    /** What to do with an event that was just received. */
    sealed interface Admission {
    }

    /** Accepted before, recently: answer 200 at once. */
    record Duplicate() implements Admission {
    }

    /** The same id is being written now: the waiter was parked until that write ends. */
    record Joined() implements Admission {
    }

    /**
     * The tenant's queued bytes are at or past its quota: answer 429. After dedupe (a copy of an event already stored
     * takes no room, and is answered as a duplicate) and before the window (a refused event takes no rate slot).
     */
    record QueueFull() implements Admission {
    }

    /** Over the window: answer 429 with this Retry-After. */
    record RateLimited(long retryAfterSeconds) implements Admission {
    }

    /**
     * Write it; {@code slot} is its rate slot, to give back if it is not stored, or null for an event over the limit
     * that is stored anyway ({@code overLimit}: its sender would not send it again): it takes no slot, asks for no
     * lease, and the limit paces its delivery instead.
     */
    record Write(Slot slot, boolean overLimit) implements Admission {
    }

    /** No rate slot until the shared window answers a lease: the caller holds the event and admits it again then. */
    record AwaitLease() implements Admission {
    }

    /** Makes a tenant's window for its limit: shared across replicas, or this replica's own. */
    @FunctionalInterface
    interface Windows {
        LeasedWindow create(int limit, int windowSeconds);

        Windows LOCAL = LeasedWindow::localOnly;
    }

    private final Map<String, List<W>> inFlight = new HashMap<>();
    private final RecentIds recent;
    private final Windows windows;
    private LeasedWindow window;

    TenantPipeline(int recentIdCapacity) {
        this(recentIdCapacity, Windows.LOCAL);
    }

    TenantPipeline(int recentIdCapacity, Windows windows) {
        this.recent = new RecentIds(recentIdCapacity);
        this.windows = windows;
    }

    Admission admit(String eventId, W waiter, long nowSecond, int limit, int windowSeconds) {
        return admit(eventId, waiter, nowSecond, limit, windowSeconds, 1);
    }

    Admission admit(String eventId, W waiter, long nowSecond, int limit, int windowSeconds, int replicas) {
        return admit(eventId, waiter, nowSecond, limit, windowSeconds, replicas, false);
    }

    Admission admit(String eventId, W waiter, long nowSecond, int limit, int windowSeconds, int replicas,
            boolean queueFull) {
        return admit(eventId, waiter, nowSecond, limit, windowSeconds, replicas, queueFull, false);
    }

    /**
     * {@code queueFull}: the tenant's queued bytes, as this replica knows them, are at or past its quota.
     * {@code storeOverLimit}: an event the window denies is written anyway (its sender does not retry).
     */
    Admission admit(String eventId, W waiter, long nowSecond, int limit, int windowSeconds, int replicas,
            boolean queueFull, boolean storeOverLimit) {
        if (recent.contains(eventId)) {
            return new Duplicate();
        }
        List<W> waiters = inFlight.get(eventId);
        if (waiters != null) {
            waiters.add(waiter);
            return new Joined();
        }
        if (queueFull) {
            return new QueueFull();
        }
        LeasedWindow.Take take = window(limit, windowSeconds).take(nowSecond, replicas);
        if (take instanceof LeasedWindow.Denied denied && !storeOverLimit) {
            return new RateLimited(denied.retryAfterSeconds());
        }
        if (take instanceof LeasedWindow.Wait) {
            return new AwaitLease();
        }
        inFlight.put(eventId, new ArrayList<>(0));
        return take instanceof LeasedWindow.Taken taken ? new Write(taken.slot(), false) : new Write(null, true);
    }

    /**
     * Records the write's outcome and returns the duplicates that waited for it. A duplicate, failed or refused
     * write gives its rate slot back: only stored events count against the window. Only an id that is in the
     * database (stored, or found there) is remembered as seen: a copy of a failed or refused one is written again.
     */
    List<W> complete(String eventId, StoreOutcome outcome, Slot slot, long nowSecond) {
        List<W> waiters = inFlight.remove(eventId);
        if (outcome != StoreOutcome.STORED && window != null && slot != null) {
            window.release(slot, nowSecond);
        }
        if (outcome == StoreOutcome.STORED || outcome == StoreOutcome.DUPLICATE) {
            recent.add(eventId);
        }
        return waiters == null ? List.of() : waiters;
    }

    int inFlightCount() {
        return inFlight.size();
    }

    /** Events counted by this replica's own window (the local-only or fallback one) at {@code nowSecond}. */
    int windowUsed(long nowSecond) {
        return window == null ? 0 : window.usedLocally(nowSecond);
    }

    /** The tenant's window, made for this limit (null before the first event). */
    LeasedWindow window() {
        return window;
    }

    LeasedWindow window(int limit, int windowSeconds) {
        if (window == null || window.limit() != limit || window.windowSeconds() != windowSeconds) {
            // A changed limit starts a fresh window (its shared key names the limit): simpler than rescaling, and
            // errs on the side of admitting.
            window = windows.create(limit, windowSeconds);
        }
        return window;
    }
}
