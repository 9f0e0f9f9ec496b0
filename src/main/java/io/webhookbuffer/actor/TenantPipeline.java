package io.webhookbuffer.actor;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.webhookbuffer.queue.StoreOutcome;
import io.webhookbuffer.ratelimit.SlidingWindowLimiter;

/**
 * A tenant's decision state machine: dedupe, then rate limit, then write. Pure and not thread-safe: its actor runs
 * it one message at a time, so no field needs a lock. Tested with plain JUnit.
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

    /** Over the window: answer 429 with this Retry-After. */
    record RateLimited(long retryAfterSeconds) implements Admission {
    }

    /** Write it; {@code slotSecond} is where its rate slot was counted, to give back if it is not stored. */
    record Write(long slotSecond) implements Admission {
    }

    private final Map<String, List<W>> inFlight = new HashMap<>();
    private final RecentIds recent;
    private SlidingWindowLimiter limiter;

    TenantPipeline(int recentIdCapacity) {
        this.recent = new RecentIds(recentIdCapacity);
    }

    Admission admit(String eventId, W waiter, long nowSecond, int limit, int windowSeconds) {
        if (recent.contains(eventId)) {
            return new Duplicate();
        }
        List<W> waiters = inFlight.get(eventId);
        if (waiters != null) {
            waiters.add(waiter);
            return new Joined();
        }
        long retryAfter = limiter(limit, windowSeconds).tryAcquire(nowSecond);
        if (retryAfter > 0) {
            return new RateLimited(retryAfter);
        }
        inFlight.put(eventId, new ArrayList<>(0));
        return new Write(nowSecond);
    }

    /**
     * Records the write's outcome and returns the duplicates that waited for it. A duplicate, failed or refused
     * write gives its rate slot back: only stored events count against the window. Only an id that is in the
     * database (stored, or found there) is remembered as seen: a copy of a failed or refused one is written again.
     */
    List<W> complete(String eventId, StoreOutcome outcome, long slotSecond, long nowSecond) {
        List<W> waiters = inFlight.remove(eventId);
        if (outcome != StoreOutcome.STORED && limiter != null) {
            limiter.release(slotSecond, nowSecond);
        }
        if (outcome == StoreOutcome.STORED || outcome == StoreOutcome.DUPLICATE) {
            recent.add(eventId);
        }
        return waiters == null ? List.of() : waiters;
    }

    int inFlightCount() {
        return inFlight.size();
    }

    int windowUsed(long nowSecond) {
        return limiter == null ? 0 : limiter.used(nowSecond);
    }

    private SlidingWindowLimiter limiter(int limit, int windowSeconds) {
        if (limiter == null || limiter.limit() != limit || limiter.windowSeconds() != windowSeconds) {
            // A changed limit starts a fresh window: simpler than rescaling, and errs on the side of admitting.
            limiter = new SlidingWindowLimiter(limit, windowSeconds);
        }
        return limiter;
    }
}
