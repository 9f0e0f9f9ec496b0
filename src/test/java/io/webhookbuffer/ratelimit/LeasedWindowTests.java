package io.webhookbuffer.ratelimit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.webhookbuffer.ratelimit.LeasedWindow.Denied;
import io.webhookbuffer.ratelimit.LeasedWindow.LeaseRequest;
import io.webhookbuffer.ratelimit.LeasedWindow.Taken;
import io.webhookbuffer.ratelimit.LeasedWindow.Wait;

/** The lease state machine alone, and R replicas on a model of the shared script: the stated bound holds. */
class LeasedWindowTests {

    private static final int MAX_LEASE = 100;
    private static final long PERIOD = 2;

    @Test
    void theFirstEventWaitsForALeaseThenItsSlotsAdmitWithoutAnotherRequest() {
        LeasedWindow w = new LeasedWindow(1000, 10, MAX_LEASE, PERIOD);
        assertInstanceOf(Wait.class, w.take(100, 1));
        LeaseRequest request = w.leaseWanted(100, true);
        assertNotNull(request);
        assertEquals(50, request.want(), "the first lease is at the cap (limit / 20): no ramp of round trips");
        assertNull(w.leaseWanted(100, true), "one request at a time");
        w.granted(5000, 1, 0, 100);
        assertEquals(new LeasedWindow.Slot(5000, true), ((Taken) w.take(100, 1)).slot());
    }

    @Test
    void leasesStartAtTheCapHalveWhenMostlyUnusedAndDoubleBackWhenUsedUp() {
        LeasedWindow w = new LeasedWindow(1000, 10, MAX_LEASE, PERIOD);
        assertEquals(50, LeasedWindow.maxLease(1000, 1, MAX_LEASE), "limit / 20 for one replica");
        List<Integer> sizes = new ArrayList<>();
        w.take(100, 1);
        LeaseRequest first = w.leaseWanted(100, true);
        sizes.add(first.want());
        w.granted(5000, first.want(), 0, 100);
        w.take(100, 1); // one of 50 used, then its period ends
        long now = 100 + PERIOD;
        for (int i = 0; i < 3; i++) {
            assertInstanceOf(Wait.class, w.take(now, 1));
            LeaseRequest r = w.leaseWanted(now, true);
            sizes.add(r.want());
            w.granted(5001 + i, r.want(), 0, now);
            while (w.take(now, 1) instanceof Taken) {
                // used up within its period
            }
        }
        assertEquals(List.of(50, 25, 50, 50), sizes, "halved after the unused one, doubled back, never past the cap");
    }

    @Test
    void theNextLeaseIsAskedForAheadWhenHalfIsUsedAndTheRestIsGivenBack() {
        LeasedWindow w = new LeasedWindow(1000, 10, MAX_LEASE, PERIOD);
        w.take(100, 1);
        w.leaseWanted(100, true);
        w.granted(5000, 1, 0, 100);
        w.take(100, 1);
        w.leaseWanted(100, true);
        w.granted(5001, 2, 0, 100); // two granted of the 50 asked for
        w.take(100, 1);
        LeaseRequest ahead = w.leaseWanted(100, false);
        assertNotNull(ahead, "one of two left: ask ahead, no event waiting");
        w.granted(5002, 4, 0, 100);
        LeaseRequest next = w.leaseWanted(100, true);
        assertEquals(Map.of(5001L, 1), next.giveBack(), "the unused slot of the replaced lease goes back");
    }

    @Test
    void aLeaseMostlyUnusedWhenItsPeriodEndsIsGivenBackAndTheNextIsSmaller() {
        LeasedWindow w = new LeasedWindow(160, 10, MAX_LEASE, PERIOD); // a cap of 8
        w.take(100, 1);
        for (int i = 0; i < 3; i++) { // at the cap, 8, and used up
            LeaseRequest r = w.leaseWanted(100, true);
            w.granted(5000 + i, r.want(), 0, 100);
            while (w.take(100, 1) instanceof Taken) {
                // use it up
            }
        }
        LeaseRequest r = w.leaseWanted(100, true);
        assertEquals(8, r.want());
        w.granted(6000, 8, 0, 100);
        w.take(100, 1); // one of eight used
        assertInstanceOf(Wait.class, w.take(100 + PERIOD, 1), "the lease's period is over");
        LeaseRequest after = w.leaseWanted(100 + PERIOD, true);
        assertEquals(Map.of(6000L, 7), after.giveBack());
        assertEquals(4, after.want(), "more than half expired unused: halved");
    }

    @Test
    void aDenialAnswers429WithTheScriptsRetryAfterAndAsksAgainOnlyASecondLater() {
        LeasedWindow w = new LeasedWindow(10, 60, MAX_LEASE, PERIOD);
        w.take(100, 1);
        w.leaseWanted(100, true);
        w.granted(5000, 0, 42, 100);
        assertEquals(new Denied(42), w.take(100, 1));
        assertNull(w.leaseWanted(100, true), "no Redis call per refused event");
        assertInstanceOf(Wait.class, w.take(101, 1), "a second later the window is asked again");
        assertNotNull(w.leaseWanted(101, true));
    }

    @Test
    void aReleasedSlotReturnsToItsLeaseOrIsGivenBackToItsSecond() {
        LeasedWindow w = new LeasedWindow(1000, 10, MAX_LEASE, PERIOD);
        w.take(100, 1);
        w.leaseWanted(100, true);
        w.granted(5000, 1, 0, 100);
        Taken taken = (Taken) w.take(100, 1);
        w.release(taken.slot(), 100);
        assertEquals(1, w.leftInLease(), "back into the current lease");
        Taken again = (Taken) w.take(100, 1);
        assertInstanceOf(Wait.class, w.take(100 + PERIOD, 1));
        w.release(again.slot(), 100 + PERIOD);
        assertEquals(Map.of(5000L, 1), w.leaseWanted(100 + PERIOD, true).giveBack(), "its lease is over: to Redis");
    }

    @Test
    void withTheSharedWindowUnreachableTheLocalShareAdmitsAndALeaseIsRetriedEachPeriod() {
        LeasedWindow w = new LeasedWindow(100, 60, MAX_LEASE, PERIOD);
        w.take(100, 3);
        w.leaseWanted(100, true);
        w.failed(100);
        assertTrue(w.inFallback());
        int admitted = 0;
        for (int i = 0; i < 100; i++) {
            if (w.take(100, 3) instanceof Taken) {
                admitted++;
            }
        }
        assertEquals(34, admitted, "ceil(100 / 3 replicas)");
        assertInstanceOf(Denied.class, w.take(101, 3));
        assertNull(w.leaseWanted(101, false), "not before the lease period");
        LeaseRequest retry = w.leaseWanted(100 + PERIOD, false);
        assertNotNull(retry, "retried in the background, no event held");
        assertEquals(Map.of(PERIOD, 34), retry.admittedByAge(), "what the share admitted goes to the shared window");
        w.granted(9000, retry.want(), 0, 100 + PERIOD);
        assertTrue(!w.inFallback());
        assertEquals(new LeasedWindow.Slot(9000, true), ((Taken) w.take(100 + PERIOD, 3)).slot());
    }

    @Test
    void admissionsOnTheShareAreReportedOnceGrantedAndAgainWhenTheRetryFails() {
        LeasedWindow w = new LeasedWindow(100, 60, MAX_LEASE, PERIOD);
        w.take(100, 2);
        w.failed(100);
        w.take(100, 2);
        w.take(101, 2);
        LeaseRequest first = w.leaseWanted(100 + PERIOD, false);
        assertEquals(Map.of(2L, 1, 1L, 1), first.admittedByAge());
        w.failed(100 + PERIOD);
        w.take(103, 2);
        LeaseRequest second = w.leaseWanted(100 + 2 * PERIOD, false);
        assertEquals(Map.of(4L, 1, 3L, 1, 1L, 1), second.admittedByAge(), "not known to be counted: sent again");
        w.granted(9000, second.want(), 0, 100 + 2 * PERIOD);
        w.take(104, 2);
        LeaseRequest third = w.leaseWanted(104, true);
        assertEquals(Map.of(), third.admittedByAge(), "counted once granted");
    }

    @Test
    void aLongOutageKeepsOnlyTheAdmissionsStillInsideTheWindow() {
        LeasedWindow w = new LeasedWindow(1_000_000, 10, MAX_LEASE, PERIOD);
        w.take(100, 1);
        w.failed(100);
        for (long now = 100; now < 100 + 3600; now++) {
            w.take(now, 1);
        }
        LeaseRequest retry = w.leaseWanted(100 + 3600, false);
        assertEquals(9, retry.admittedByAge().size(), "an hour away: the seconds still in the window (3691-3699), not 3,600");
        assertTrue(retry.admittedByAge().keySet().stream().allMatch(age -> age >= 1 && age <= 9));
    }

    @Test
    void aReplicaThatFallsBackMidWindowAdmitsOnlyWhatIsLeftOfItsShare() {
        LeasedWindow w = new LeasedWindow(90, 60, MAX_LEASE, PERIOD);
        w.take(100, 3);
        w.leaseWanted(100, true);
        w.granted(5000, 20, 0, 100);
        for (int i = 0; i < 20; i++) {
            assertInstanceOf(Taken.class, w.take(100, 3));
        }
        w.leaseWanted(100, true);
        w.failed(100);
        int admitted = 0;
        for (int i = 0; i < 50; i++) {
            if (w.take(101, 3) instanceof Taken) {
                admitted++;
            }
        }
        assertEquals(10, admitted, "the share is 90 / 3 = 30, and 20 were admitted on leases in this window");
    }

    @Test
    void aLocalOnlyWindowNeverAsksForALease() {
        LeasedWindow w = LeasedWindow.localOnly(2, 10);
        assertInstanceOf(Taken.class, w.take(100, 5));
        assertInstanceOf(Taken.class, w.take(100, 5));
        assertInstanceOf(Denied.class, w.take(100, 5), "the whole limit is this replica's");
        assertNull(w.leaseWanted(100, true));
    }

    @ParameterizedTest(name = "limit {0}/{1}s, {2} replicas")
    @CsvSource({"1000, 10, 3", "100, 10, 3", "20, 5, 2", "5000, 60, 3", "50, 1, 3"})
    void acrossReplicasEveryWindowAdmitsAtMostTheLimitPlusTheStatedBound(int limit, int window, int replicas) {
        SharedModel shared = new SharedModel(limit, window);
        List<LeasedWindow> windows = new ArrayList<>();
        for (int r = 0; r < replicas; r++) {
            windows.add(new LeasedWindow(limit, window, MAX_LEASE, PERIOD));
        }
        Random random = new Random(limit * 31L + replicas);
        Map<Long, Integer> admittedAt = new HashMap<>();
        long start = 1000;
        long end = start + 20L * window + 40;
        for (long now = start; now < end; now++) {
            // each second every replica sees a random share of a load 3x the limit's rate
            for (int r = 0; r < replicas; r++) {
                LeasedWindow w = windows.get(r);
                int arrivals = random.nextInt(Math.max(2, 6 * limit / window / replicas));
                for (int i = 0; i < arrivals; i++) {
                    if (offer(w, shared, now, replicas)) {
                        admittedAt.merge(now, 1, Integer::sum);
                    }
                }
            }
        }
        int bound = limit + LeasedWindow.worstCaseOver(limit, replicas, MAX_LEASE);
        int worst = worstWindow(admittedAt, start, end, window);
        assertTrue(worst <= bound, "at most " + bound + " per window, saw " + worst);
        assertTrue(worst >= limit * 0.9, "the limit is reachable under load: saw " + worst + " of " + limit);
        if (limit >= 20 * replicas) {
            assertTrue(bound <= limit * 1.075 + 1e-9, "the stated precision: 7.5% over at most, bound " + bound);
        }
    }

    @ParameterizedTest(name = "limit {0}/{1}s, {2} replicas, one lease in {3} fails")
    @CsvSource({"150, 5, 3, 200", "150, 5, 3, 50", "1000, 10, 3, 20", "100, 10, 2, 10"})
    void withLeasesFailingEachWindowAdmitsAtMostTheBoundPlusAShareForEachReplicaOnItsShare(int limit, int window,
            int replicas, int failOneIn) {
        SharedModel shared = new SharedModel(limit, window);
        List<LeasedWindow> windows = new ArrayList<>();
        for (int r = 0; r < replicas; r++) {
            windows.add(new LeasedWindow(limit, window, MAX_LEASE, PERIOD));
        }
        Random random = new Random(limit * 17L + failOneIn);
        shared.failing(random, failOneIn);
        Map<Long, Integer> admittedAt = new HashMap<>();
        Map<Long, Set<Integer>> onShareAt = new HashMap<>();
        long start = 1000;
        long end = start + 40L * window + 40;
        for (long now = start; now < end; now++) {
            for (int r = 0; r < replicas; r++) {
                int arrivals = random.nextInt(Math.max(2, 30 * limit / window / replicas));
                for (int i = 0; i < arrivals; i++) {
                    LeasedWindow.Take take = offered(windows.get(r), shared, now, replicas);
                    if (take instanceof Taken taken) {
                        admittedAt.merge(now, 1, Integer::sum);
                        if (!taken.slot().leased()) {
                            onShareAt.computeIfAbsent(now, s -> new HashSet<>()).add(r);
                        }
                    }
                }
            }
        }
        int bound = limit + LeasedWindow.worstCaseOver(limit, replicas, MAX_LEASE);
        int share = (limit + replicas - 1) / replicas;
        assertTrue(shared.failures() > 0, "some leases failed");
        for (long s = start; s + window <= end; s++) {
            int inWindow = 0;
            Set<Integer> onShare = new HashSet<>();
            for (long t = s; t < s + window; t++) {
                inWindow += admittedAt.getOrDefault(t, 0);
                onShare.addAll(onShareAt.getOrDefault(t, Set.of()));
            }
            int allowed = bound + onShare.size() * share;
            assertTrue(inWindow <= allowed, "window at " + s + ": " + inWindow + " admitted, at most " + allowed
                    + " (" + onShare.size() + " replicas on their share)");
        }
    }

    /** One event at one replica: a lease asked for when it must wait (answered at once) or ahead; true if admitted. */
    private static boolean offer(LeasedWindow w, SharedModel shared, long now, int replicas) {
        return offered(w, shared, now, replicas) instanceof Taken;
    }

    /** As the actor does: a lease when the event must wait, then ahead after each decided event. */
    private static LeasedWindow.Take offered(LeasedWindow w, SharedModel shared, long now, int replicas) {
        LeasedWindow.Take take = w.take(now, replicas);
        if (take instanceof Wait) {
            LeaseRequest request = w.leaseWanted(now, true);
            if (request != null) {
                shared.answer(w, request, now);
            }
            take = w.take(now, replicas);
        }
        if (!(take instanceof Wait)) {
            LeaseRequest ahead = w.leaseWanted(now, false);
            if (ahead != null) {
                shared.answer(w, ahead, now);
            }
        }
        return take;
    }

    /** The most events admitted in any {@code window} consecutive seconds. */
    private static int worstWindow(Map<Long, Integer> admittedAt, long start, long end, int window) {
        int worst = 0;
        for (long s = start; s + window <= end; s++) {
            int inWindow = 0;
            for (long t = s; t < s + window; t++) {
                inWindow += admittedAt.getOrDefault(t, 0);
            }
            worst = Math.max(worst, inWindow);
        }
        return worst;
    }

    /** The Lua script's semantics in Java (SharedWindowTests runs the script itself on Redis). */
    private static final class SharedModel {
        private final int limit;
        private final int window;
        private final Map<Long, Integer> bySecond = new HashMap<>();
        private Random random;
        private int failOneIn;
        private int failures;

        SharedModel(int limit, int window) {
            this.limit = limit;
            this.window = window;
        }

        void failing(Random random, int oneIn) {
            this.random = random;
            this.failOneIn = oneIn;
        }

        int failures() {
            return failures;
        }

        void answer(LeasedWindow w, LeaseRequest request, long now) {
            if (random != null && random.nextInt(failOneIn) == 0) {
                failures++;
                w.failed(now); // what it gave back and reported is lost with it: the next request sends it again
                return;
            }
            long oldest = now - window + 1;
            request.admittedByAge().forEach((age, count) -> {
                if (now - age >= oldest) {
                    bySecond.merge(now - age, count, Integer::sum);
                }
            });
            request.giveBack().forEach((second, count) -> {
                if (second >= oldest) {
                    bySecond.merge(second, -count, Integer::sum);
                }
            });
            bySecond.keySet().removeIf(second -> second < oldest);
            int used = bySecond.values().stream().mapToInt(Integer::intValue).sum();
            int granted = Math.max(0, Math.min(request.want(), limit - used));
            if (granted > 0) {
                bySecond.merge(now, granted, Integer::sum);
            }
            long first = bySecond.keySet().stream().mapToLong(Long::longValue).min().orElse(now);
            w.granted(now, granted, granted == 0 ? Math.max(1, first + window - now) : 0, now);
        }
    }
}
