package io.webhookbuffer.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.webhookbuffer.delivery.FailurePolicy.Action;
import io.webhookbuffer.delivery.FailurePolicy.Context;
import io.webhookbuffer.delivery.FailurePolicy.Decision;
import io.webhookbuffer.delivery.FailurePolicy.Verdict;
import io.webhookbuffer.queue.QueuedEvent;

/**
 * Failure attribution as a pure decision: plain JUnit, time passed in. The drainer's side of it (the halving, the
 * held event, the breaker) runs against a real origin in {@link DeliveryTests}.
 */
class FailurePolicyTests {

    private static final int MAX_ATTEMPTS = 5;
    private static final long T0 = 1_800_000_000_000L;
    private static final FailurePolicy POLICY = new FailurePolicy(
            new BackoffPolicy(Duration.ofSeconds(2), Duration.ofMinutes(5), () -> 1.0), MAX_ATTEMPTS,
            Duration.ofHours(72), Duration.ofSeconds(30));

    private static QueuedEvent event(long id, long receivedAt, int attempts, int failures, long isolatedAt) {
        OffsetDateTime received = OffsetDateTime.ofInstant(Instant.ofEpochMilli(receivedAt), ZoneOffset.UTC);
        return new QueuedEvent(id, "e" + id, new byte[0], "application/json", "{}", received, attempts, received,
                failures, isolatedAt, attempts, receivedAt);
    }

    private static List<QueuedEvent> batch(int n) {
        return IntStream.range(0, n).mapToObj(i -> event(i + 1, T0, 0, 0, 0)).toList();
    }

    private static OriginResponse status(int status) {
        return new OriginResponse(status, 0, Map.of(), "HTTP " + status);
    }

    private static Decision decide(List<QueuedEvent> batch, OriginResponse response, Context context) {
        return POLICY.onFailure(batch, response, FailurePolicy.classify(response, false), context);
    }

    /** The origin accepted a batch at T0 + 10 s and nothing failed since. */
    private static Context healthy(long now) {
        return new Context(T0 + 10_000, T0 + 5_000, false, now);
    }

    /** The origin failed another batch after its last success. */
    private static Context failing(long now) {
        return new Context(T0 + 10_000, T0 + 20_000, false, now);
    }

    @ParameterizedTest
    @ValueSource(ints = { 301, 302, 303, 307, 308, 401, 403, 404, 408, 429, 503 })
    void originWideAnswersRetryTheWholeBatchAndNeverCount(int code) {
        Decision d = decide(batch(50), status(code), healthy(T0 + 30_000));
        assertEquals(Action.RETRY, d.action());
        assertTrue(d.deadLetter().isEmpty());
        assertFalse(d.ownFailure());
    }

    @Test
    void aRefusedConnectionIsOriginWideEvenForALoneEventOnAHealthyOrigin() {
        OriginResponse refused = OriginResponse.unreachable("Connection refused");
        assertEquals(Verdict.UNAVAILABLE, FailurePolicy.classify(refused, false));
        Decision d = decide(List.of(event(1, T0, 3, 2, T0 + 1_000)), refused, healthy(T0 + 30_000));
        assertEquals(Action.RETRY, d.action());
    }

    @ParameterizedTest
    @ValueSource(ints = { 500, 502, 504, 599 })
    void aServerErrorOnAHealthyOriginIsHalvedToFindTheEvent(int code) {
        Decision d = decide(batch(50), status(code), healthy(T0 + 30_000));
        assertEquals(Action.SPLIT, d.action());
        assertEquals(25, d.limit());
    }

    @Test
    void aTimeoutOrResetIsSuspectLikeA500() {
        assertEquals(Verdict.SUSPECT, FailurePolicy.classify(OriginResponse.noAnswer("timeout"), false));
        assertEquals(Action.SPLIT, decide(batch(8), OriginResponse.noAnswer("reset"), healthy(T0 + 30_000)).action());
    }

    @Test
    void aServerErrorWhileTheOriginFailsOthersTooIsOriginWide() {
        Decision d = decide(batch(50), status(500), failing(T0 + 30_000));
        assertEquals(Action.RETRY, d.action());
        assertTrue(d.deadLetter().isEmpty());
    }

    @Test
    void aRecentSuccessKeepsTheOriginHealthyThoughAnotherTenantsBatchFailedSince() {
        // A busy origin that always fails one tenant must not hide a poison in another's queue.
        Context busy = new Context(T0 + 10_000, T0 + 11_000, false, T0 + 12_000);
        assertEquals(Action.SPLIT, decide(batch(50), status(500), busy).action());
        Context stale = new Context(T0 + 10_000, T0 + 11_000, false, T0 + 10_000 + FailurePolicy.RECENT_SUCCESS_MILLIS
                + 1);
        assertEquals(Action.RETRY, decide(batch(50), status(500), stale).action());
    }

    @Test
    void whenTheProbeBehindAHeldEventFailsTooTheTenantsFailuresAreTheOrigins() {
        Context probe = new Context(T0 + 10_000, T0 + 5_000, false, true, false, T0 + 12_000);
        Decision d = decide(batch(50), status(500), probe);
        assertEquals(Action.RETRY, d.action(), "no quick halving: the events behind the held one fail as well");
        assertEquals(25, d.limit(), "the next try, after the backoff, carries half the batch");
        assertTrue(d.deadLetter().isEmpty());
        // Until one of its batches is accepted, a held event's failures do not count, even with others succeeding.
        QueuedEvent held = event(1, T0, 4, 2, T0 + 11_000);
        Decision alone = decide(List.of(held), status(500),
                new Context(T0 + 20_000, T0 + 5_000, true, false, true, T0 + 30_000));
        assertEquals(Action.HOLD_ASIDE, alone.action());
        assertFalse(alone.ownFailure());
        assertEquals(Action.RETRY, decide(batch(50), status(500),
                new Context(T0 + 20_000, T0 + 5_000, false, false, true, T0 + 21_000)).action());
    }

    @Test
    void whileTheTenantFailsTheHalvingGoesOnOneStepPerBackoffAndSetsALoneFailureAsideUncounted() {
        Context tenantFailing = new Context(T0 + 10_000, T0 + 20_000, false, false, true, T0 + 30_000);
        Decision half = decide(batch(12), status(500), tenantFailing);
        assertEquals(Action.RETRY, half.action());
        assertEquals(6, half.limit());
        assertTrue(half.delayMillis() > 0, "one step per backoff, not at once");
        Decision alone = decide(batch(1), status(500), tenantFailing);
        assertEquals(Action.HOLD_ASIDE, alone.action(), "the events behind it are tried next");
        assertFalse(alone.ownFailure());
    }

    @Test
    void whileTheTenantFailsABatchPastMaxAgeIsHalvedNotDeadLetteredWholeAndALoneOneIs() {
        long now = T0 + Duration.ofHours(73).toMillis();
        Context tenantFailing = new Context(now - 20_000, now - 10_000, false, false, true, now);
        Decision half = decide(batch(8), status(500), tenantFailing);
        assertEquals(Action.RETRY, half.action());
        assertEquals(4, half.limit());
        assertEquals(List.of(), half.deadLetter(), "its halves have not been told apart yet");
        Decision alone = decide(batch(1), status(500), tenantFailing);
        assertEquals(Action.DEAD_LETTER, alone.action());
        assertTrue(alone.reason().contains("max-age"), alone.reason());
    }

    @Test
    void theBackoffGrowsWithTheEventsWaitsNotWithItsHalvingTries() {
        OffsetDateTime received = OffsetDateTime.ofInstant(Instant.ofEpochMilli(T0), ZoneOffset.UTC);
        QueuedEvent halvedSixTimes = new QueuedEvent(1, "e1", new byte[0], "application/json", "{}", received, 6,
                received, 0, 0, 0, T0);
        Decision d = decide(List.of(halvedSixTimes), status(503), healthy(T0 + 30_000));
        assertEquals(2_000, d.delayMillis(), "its first wait: 2 s (jitter at 1.0)");
    }

    @Test
    void aHalvingInProgressGoesOnWhateverTheOriginsHealthSays() {
        // The halving's own first failure made the origin look unhealthy; the next halves must go on anyway.
        Context isolating = new Context(T0 + 10_000, T0 + 20_000, true, T0 + 30_000);
        assertEquals(Action.SPLIT, decide(batch(12), status(500), isolating).action());
        Decision alone = decide(batch(1), status(500), isolating);
        assertEquals(Action.HOLD_ASIDE, alone.action());
        assertFalse(alone.ownFailure(), "a first failure alone is not counted: no success since a try of its own");
    }

    @Test
    void aHeldEventsFailureCountsOnlyWhenTheOriginAcceptedAnotherBatchSinceItsLastTry() {
        QueuedEvent held = event(1, T0, 4, 2, T0 + 12_000);
        // No success after its last try (T0 + 12 s): the origin may be down now; not its fault.
        Decision notCounted = decide(List.of(held), status(500), new Context(T0 + 10_000, T0 + 11_000, true,
                T0 + 40_000));
        assertEquals(Action.HOLD_ASIDE, notCounted.action());
        assertFalse(notCounted.ownFailure());
        // A batch behind it was accepted at T0 + 15 s: the origin works, this event does not.
        Decision counted = decide(List.of(held), status(500), new Context(T0 + 15_000, T0 + 11_000, true,
                T0 + 40_000));
        assertEquals(Action.HOLD_ASIDE, counted.action());
        assertTrue(counted.ownFailure());
        assertEquals(32_000, counted.delayMillis(), "its fifth try: 2 s doubled four times (jitter at 1.0)");
    }

    @Test
    void aHeldEventIsDeadLetteredAtMaxAttemptsOwnFailures() {
        QueuedEvent held = event(1, T0, 9, MAX_ATTEMPTS - 1, T0 + 12_000);
        Decision d = decide(List.of(held), status(500), new Context(T0 + 15_000, T0 + 11_000, true, T0 + 40_000));
        assertEquals(Action.DEAD_LETTER, d.action());
        assertEquals(List.of(held), d.deadLetter());
        assertTrue(d.reason().startsWith("failed alone " + MAX_ATTEMPTS + " times"), d.reason());
    }

    @Test
    void aHeldEventFailingWithA503IsRetriedAndNotCounted() {
        QueuedEvent held = event(1, T0, 9, MAX_ATTEMPTS - 1, T0 + 12_000);
        Decision d = decide(List.of(held), status(503), new Context(T0 + 15_000, T0 + 11_000, true, T0 + 40_000));
        assertEquals(Action.RETRY, d.action());
        assertTrue(d.deadLetter().isEmpty());
    }

    @Test
    void aRefusedBatchIsHalvedAndALoneRefusedEventDeadLetteredAtOnce() {
        assertEquals(Action.SPLIT, decide(batch(10), status(422), failing(T0)).action());
        Decision d = decide(batch(1), status(422), failing(T0));
        assertEquals(Action.DEAD_LETTER, d.action());
        assertTrue(d.reason().startsWith("refused by origin"));
    }

    @Test
    void anOpenBreakerWaitsItsDelayAndCountsNothing() {
        Decision d = POLICY.onFailure(batch(5), status(0), Verdict.CIRCUIT_OPEN, healthy(T0));
        assertEquals(Action.WAIT, d.action());
        assertEquals(30_000, d.delayMillis());
    }

    @Test
    void eventsPastMaxAgeAreDeadLetteredOnAnyFailureAndTheRestRetried() {
        long now = T0 + Duration.ofHours(73).toMillis();
        List<QueuedEvent> mixed = List.of(event(1, T0, 40, 0, 0), event(2, now - 1_000, 0, 0, 0));
        Decision d = decide(mixed, status(503), healthy(now));
        assertEquals(Action.RETRY, d.action());
        assertEquals(List.of(mixed.get(0)), d.deadLetter());
        assertTrue(d.reason().contains("max-age"));
    }

    @Test
    void maxAgeCountsFromWhenTheEventBecameDeliverableNotFromItsReceipt() {
        long now = T0 + Duration.ofHours(73).toMillis();
        OffsetDateTime received = OffsetDateTime.ofInstant(Instant.ofEpochMilli(T0), ZoneOffset.UTC);
        // Received 73 h ago, deliverable again an hour ago (replayed, or its tenant resumed): it is not too old.
        QueuedEvent resumed = new QueuedEvent(1, "e1", new byte[0], "application/json", "{}", received, 0, received, 0,
                0, 0, now - Duration.ofHours(1).toMillis());
        Decision d = decide(List.of(resumed), status(503), healthy(now));
        assertEquals(Action.RETRY, d.action());
        assertEquals(List.of(), d.deadLetter());
    }

    @Test
    void retryDelaysGrowWithEveryTryToTheCapAndHonourRetryAfter() {
        List<Long> delays = new ArrayList<>();
        for (int attempts = 0; attempts < 12; attempts++) {
            delays.add(decide(List.of(event(1, T0, attempts, 0, 0)), status(503), healthy(T0)).delayMillis());
        }
        assertEquals(2_000, delays.get(0));
        assertEquals(300_000, delays.get(11), "capped at 5 min");
        OriginResponse slowDown = new OriginResponse(429, 600_000, Map.of(), "HTTP 429");
        assertEquals(600_000, decide(batch(3), slowDown, healthy(T0)).delayMillis());
    }

    /**
     * The guarantee, played out: an origin answering 500 to everything for ten times max-attempts × the backoff
     * cap, batch after batch, never produces a dead letter, however the tries fall.
     */
    @Test
    void aLongOutageOfServerErrorsNeverDeadLettersAnything() {
        long now = T0;
        long lastSuccess = T0 - 1;
        long lastFailure = 0;
        QueuedEvent head = event(1, T0, 0, 0, 0);
        boolean isolating = false;
        int limit = 50;
        long end = T0 + 10L * MAX_ATTEMPTS * Duration.ofMinutes(5).toMillis();
        while (now < end) {
            List<QueuedEvent> sent = head.heldAside() ? List.of(head) : batch(limit);
            if (!head.heldAside()) {
                sent = new ArrayList<>(sent);
                sent.set(0, head);
            }
            boolean isolationTry = isolating || head.heldAside();
            Decision d = decide(sent, status(500), new Context(lastSuccess, lastFailure, isolationTry, now));
            if (!isolationTry) {
                lastFailure = now;
            }
            assertFalse(d.action() == Action.DEAD_LETTER || !d.deadLetter().isEmpty(), "dead-lettered at " + now);
            switch (d.action()) {
                case SPLIT -> {
                    isolating = true;
                    limit = d.limit();
                }
                case HOLD_ASIDE -> {
                    isolating = false;
                    head = event(1, T0, head.attempts() + 1, head.failures() + (d.ownFailure() ? 1 : 0), now);
                    now += d.delayMillis();
                }
                default -> {
                    isolating = false;
                    head = event(1, T0, head.attempts() + 1, head.failures(), head.isolatedAtMillis());
                    now += d.delayMillis();
                }
            }
        }
        assertEquals(0, head.failures(), "no failure counted without a success in between");
    }
}
