package io.webhookbuffer.ratelimit;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One tenant's admission slots on one replica, taken in leases from the tenant's window shared by every replica (in
 * Redis, by {@code ratelimit.shared.SharedWindows}), so the tenant's limit holds across replicas while Redis stays off
 * the per-event path. Pure and not thread-safe: the tenant's actor owns it and does the I/O it asks for.
 *
 * <p>A lease is k slots granted at a second of the shared window (Redis's clock). Its slots are used for
 * {@code leasePeriod} seconds of this replica's monotonic clock; what is left then is given back with the next lease
 * request. When at most half of the current lease is left, the next one is asked for ahead, so an event waits for
 * Redis only when the tenant was idle. k adapts: the first lease is at the cap, then it doubles when a lease is used up
 * within its period and halves when more than half of one expired unused, between 1 and {@link #maxLease}:
 * {@code min(max-lease, limit / (20 x replicas))}, at least 1.
 *
 * <p>Precision: the shared window counts each slot at its grant second, so in any window of the tenant's length at most
 * {@code limit} slots granted inside it are used, plus the slots some replica held unused when the window began (at
 * most one lease and half of the one before it per replica). Admitted events per window are therefore at most
 * {@code limit + replicas x (k + k/2)} with k at its cap: at most {@code limit + 7.5%} once {@code limit >= 20 x
 * replicas}, else at most {@code limit + 1.5 x replicas}.
 *
 * <p>When the shared window cannot be reached (Redis down or slower than its timeout), admission falls back to a local
 * sliding window of {@code ceil(limit / replicas)} (the replica count last seen): losing events is worse than admitting
 * a few too many. A lease is asked for again each {@code leasePeriod} meanwhile, without holding events; the first
 * grant ends the fallback. The local window counts every event this replica admitted, leased or not, so a replica
 * that falls back mid-window admits only what is left of its share, up to one share over the bound in the windows
 * that overlap its fallback. What the share admitted is sent with the next lease request, by age, so the shared window
 * counts it from then on (sent again if that request fails too).
 */
public final class LeasedWindow {

    /** What {@link #take} decided. */
    public sealed interface Take {
    }

    /** Admitted, on this slot (give it back with {@link #release} if the event is not stored). */
    public record Taken(Slot slot) implements Take {
    }

    /** Over the limit: answer 429 with this Retry-After. */
    public record Denied(long retryAfterSeconds) implements Take {
    }

    /** No slot until a lease comes back: hold the event and call {@link #take} again after {@link #granted}. */
    public record Wait() implements Take {
    }

    /** A slot: of a lease granted at {@code second} of the shared window, or of the local fallback window. */
    public record Slot(long second, boolean leased) {
    }

    /**
     * What the actor sends to the shared window: slots wanted, slots given back by grant second, and what the local
     * share admitted while the window could not be reached, by age in seconds (0: this second), for the window to
     * count.
     */
    public record LeaseRequest(int want, Map<Long, Integer> giveBack, Map<Long, Integer> admittedByAge) {

        public LeaseRequest(int want, Map<Long, Integer> giveBack) {
            this(want, giveBack, Map.of());
        }
    }

    static final int PRECISION_DIVISOR = 20;

    private final int limit;
    private final int windowSeconds;
    private final int maxLease;
    private final long leasePeriod;
    private final boolean localOnly;

    /** The lease size; 0 until the first lease, which is made at the cap (see {@link #leaseWanted}). */
    private int k;
    private long grantSecond = -1;
    private long leasedAt;
    private int granted;
    private int left;
    private boolean requested;
    private long deniedUntil = Long.MIN_VALUE;
    private long deniedRetryAfter;
    private long deniedAt;
    private boolean inFallback;
    private long retryAt;
    private SlidingWindowLimiter fallback;
    private int replicas = 1;
    private final Map<Long, Integer> giveBack = new LinkedHashMap<>();
    // Admissions on the local share not yet counted by the shared window, by this replica's second; and those sent with
    // the request that is out (counted once it is granted, kept for the next one if it fails).
    private final Map<Long, Integer> unreported = new LinkedHashMap<>();
    private Map<Long, Integer> reporting = Map.of();

    /**
     * @param maxLease the configured cap on a lease ({@code buffer.ratelimit.max-lease})
     * @param leasePeriodSeconds how long a lease's slots are used before the rest is given back
     */
    public LeasedWindow(int limit, int windowSeconds, int maxLease, long leasePeriodSeconds) {
        this(limit, windowSeconds, maxLease, leasePeriodSeconds, false);
    }

    /** A window of this replica alone ({@code buffer.ratelimit.shared=false}). */
    public static LeasedWindow localOnly(int limit, int windowSeconds) {
        return new LeasedWindow(limit, windowSeconds, 1, 1, true);
    }

    private LeasedWindow(int limit, int windowSeconds, int maxLease, long leasePeriodSeconds, boolean localOnly) {
        if (limit < 1 || windowSeconds < 1 || maxLease < 1 || leasePeriodSeconds < 1) {
            throw new IllegalArgumentException("limit, window, max lease and lease period must be at least 1");
        }
        this.limit = limit;
        this.windowSeconds = windowSeconds;
        this.maxLease = maxLease;
        this.leasePeriod = leasePeriodSeconds;
        this.localOnly = localOnly;
        this.inFallback = localOnly;
    }

    public int limit() {
        return limit;
    }

    public int windowSeconds() {
        return windowSeconds;
    }

    /** The largest lease for this many replicas: {@code min(max-lease, limit / (20 x replicas))}, at least 1. */
    public static int maxLease(int limit, int replicas, int configuredMax) {
        return Math.max(1, Math.min(configuredMax, limit / (PRECISION_DIVISOR * Math.max(1, replicas))));
    }

    /** The most a window can admit over {@code limit} across {@code replicas}, by the bound in the class comment. */
    public static int worstCaseOver(int limit, int replicas, int configuredMax) {
        int cap = maxLease(limit, replicas, configuredMax);
        return Math.max(1, replicas) * (cap + cap / 2);
    }

    /** Admits, refuses, or asks the caller to wait for a lease, at this replica's second {@code now}. */
    public Take take(long now, int replicaCount) {
        replicas = localOnly ? 1 : Math.max(1, replicaCount);
        if (inFallback) {
            return fromFallback(now);
        }
        expire(now);
        if (left > 0) {
            left--;
            local().record(now);
            return new Taken(new Slot(grantSecond, true));
        }
        if (now < deniedUntil) {
            return new Denied(Math.max(1, deniedRetryAfter - (now - deniedAt)));
        }
        return new Wait();
    }

    /**
     * The lease to ask for now, or null: when the caller waits for slots or at most half of the lease is left (or,
     * on the fallback, once per lease period), and no request is out. Marks one as out; the caller answers with
     * {@link #granted} or {@link #failed}.
     */
    public LeaseRequest leaseWanted(long now, boolean eventsWaiting) {
        if (requested || localOnly) {
            return null;
        }
        if (inFallback) {
            if (now < retryAt) {
                return null;
            }
        } else {
            expire(now);
            boolean low = grantSecond >= 0 && left <= k / 2;
            if (!eventsWaiting && !low || now < deniedUntil) {
                return null;
            }
        }
        requested = true;
        // The first lease is as large as the bound allows: a tenant that starts busy (a new replica, an actor made
        // again) does not wait through seven round trips of growth; one that does not use it halves it. Then: half of
        // the current lease used within its period (what asks for the next one): grow; else keep k.
        k = nextLeaseSize();
        Map<Long, Integer> back = new LinkedHashMap<>(giveBack);
        giveBack.clear();
        forgetOlderThanTheWindow(now);
        reporting = new LinkedHashMap<>(unreported);
        unreported.clear();
        Map<Long, Integer> byAge = new LinkedHashMap<>();
        reporting.forEach((second, count) -> byAge.put(now - second, count));
        return new LeaseRequest(k, back, byAge);
    }

    /**
     * The shared window granted {@code count} slots at its second {@code second} ({@code retryAfterSeconds} when it
     * granted none), answered at this replica's second {@code now}. What was left of the lease before is given back.
     */
    public void granted(long second, int count, long retryAfterSeconds, long now) {
        requested = false;
        inFallback = false;
        reporting = Map.of(); // the shared window counts them now
        if (count <= 0) {
            deniedAt = now;
            deniedRetryAfter = Math.max(1, retryAfterSeconds);
            deniedUntil = now + 1; // ask again a second later: others may have given slots back
            return;
        }
        if (grantSecond >= 0 && left > 0) {
            giveBack.merge(grantSecond, left, Integer::sum);
        }
        deniedUntil = Long.MIN_VALUE;
        grantSecond = second;
        leasedAt = now;
        granted = count;
        left = count;
    }

    /**
     * The shared window could not be reached: the local fallback admits from now until a lease is granted again
     * (asked for once per lease period). What is left of the current lease is dropped, not given back.
     */
    public void failed(long now) {
        requested = false;
        // Not known to be counted: sent again with the next request (counted twice at worst: errs on refusing).
        Map<Long, Integer> again = new LinkedHashMap<>(reporting); // older first: the map stays in time order
        unreported.forEach((second, count) -> again.merge(second, count, Integer::sum));
        unreported.clear();
        unreported.putAll(again);
        reporting = Map.of();
        inFallback = true;
        retryAt = now + leasePeriod;
        grantSecond = -1;
        left = 0;
        granted = 0;
    }

    /** Whether admission runs on the local fallback window. */
    public boolean inFallback() {
        return inFallback;
    }

    /** Gives back a slot of an event that was not stored (a duplicate, a failed write). */
    public void release(Slot slot, long now) {
        if (!slot.leased()) {
            if (fallback != null) {
                fallback.release(slot.second(), now);
            }
            unreported.computeIfPresent(slot.second(), (second, count) -> count > 1 ? count - 1 : null);
        } else if (slot.second() == grantSecond && now - leasedAt < leasePeriod) {
            left++;
        } else {
            giveBack.merge(slot.second(), 1, Integer::sum);
        }
    }

    /** Events this replica's own window counts at {@code now} (every admission, leased or not); 0 before any. */
    public int usedLocally(long now) {
        return fallback == null ? 0 : fallback.used(now);
    }

    /** Slots of this replica's current lease still unused (for tests and the status page). */
    public int leftInLease() {
        return left;
    }

    /** The current lease size k (1 before the first lease). */
    public int leaseSize() {
        return Math.max(1, k);
    }

    private void expire(long now) {
        if (grantSecond >= 0 && now - leasedAt >= leasePeriod) {
            if (left > 0) {
                giveBack.merge(grantSecond, left, Integer::sum);
                if (left * 2 > granted) {
                    k = Math.max(1, k / 2); // more than half expired unused: shrink
                }
            }
            grantSecond = -1;
            left = 0;
            granted = 0;
        }
    }

    /** This replica's own window: every event it admitted, counted whatever the replica count (the share) does. */
    private SlidingWindowLimiter local() {
        if (fallback == null) {
            fallback = new SlidingWindowLimiter(limit, windowSeconds);
        }
        return fallback;
    }

    private int nextLeaseSize() {
        int cap = maxLease(limit, replicas, maxLease);
        if (k == 0) {
            return cap;
        }
        return Math.min(grantSecond >= 0 ? k * 2 : k, cap);
    }

    /** Local-share admissions that have left every window need no counting: drops them (the map is in time order). */
    private void forgetOlderThanTheWindow(long now) {
        var oldest = unreported.keySet().iterator();
        while (oldest.hasNext() && oldest.next() <= now - windowSeconds) {
            oldest.remove();
        }
    }

    private Take fromFallback(long now) {
        long retryAfter = local().tryAcquire(now, (limit + replicas - 1) / replicas);
        if (retryAfter > 0) {
            return new Denied(retryAfter);
        }
        if (!localOnly) {
            if (!unreported.containsKey(now)) {
                forgetOlderThanTheWindow(now); // once a second: bounds the map by the window in a long outage
            }
            unreported.merge(now, 1, Integer::sum);
        }
        return new Taken(new Slot(now, false));
    }
}
