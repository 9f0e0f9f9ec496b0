package io.webhookbuffer.status;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.webhookbuffer.delivery.DrainView;
import io.webhookbuffer.queue.QueueSnapshot;
import io.webhookbuffer.queue.QueueSnapshot.TenantRow;
import io.webhookbuffer.verify.SenderRetries;

/** The status page's ordering and states, as plain JUnit over a snapshot (no server). */
class StatusBoardTests {

    private static final Instant NOW = Instant.parse("2026-01-01T12:00:00Z");
    private static final OffsetDateTime LATER = OffsetDateTime.ofInstant(NOW.plusSeconds(90), ZoneOffset.UTC);

    @Test
    void sortsByWhatNeedsAttentionThenByOldestPendingAge() {
        QueueSnapshot snapshot = new QueueSnapshot(NOW, 0, 0, 0, 0, List.of(
                new TenantRow("old-ok", 10, 900, 0, null, null, null, 0, null, false),
                new TenantRow("young-ok", 10, 5, 0, null, null, null, 0, null, false),
                new TenantRow("failing", 3, 60, 4, LATER, 503, "Service Unavailable", 0, null, false),
                new TenantRow("broken-origin", 2, 30, 2, LATER, 503, "HTTP 503", 0, null, false),
                new TenantRow("poisoned", 0, 0, 0, null, null, null, 7, null, false),
                new TenantRow("failing-older", 1, 600, 9, null, null, "timeout", 1, null, false),
                new TenantRow("held", 4, 1200, 3, LATER, 503, "HTTP 503", 0, null, true)));
        Map<String, DrainView> views = Map.of("broken-origin", new DrainView(false, 0, true, "circuit breaker open", -1));

        List<StatusBoard.Row> rows = StatusBoard.rows(snapshot, views::get, NOW);

        assertEquals(List.of("broken-origin", "failing-older", "failing", "poisoned", "held", "old-ok", "young-ok"),
                rows.stream().map(StatusBoard.Row::tenantId).toList());
        assertEquals(StatusBoard.State.CIRCUIT_OPEN, rows.get(0).state());
        assertEquals("backing off until 12:01:30 UTC", rows.get(2).stateText());
        assertEquals("HTTP 503: Service Unavailable", rows.get(2).lastError());
        assertEquals("HTTP 503", rows.get(0).lastError(), "the status is not repeated");
        assertEquals("backing off (attempt 10 due)", rows.get(1).stateText());
        assertEquals("timeout", rows.get(1).lastError());
        assertEquals(StatusBoard.State.DEAD_LETTERS, rows.get(3).state());
        assertEquals(StatusBoard.State.PAUSED, rows.get(4).state(), "paused wins over its head's failed attempt");
        assertEquals("15m 00s", rows.get(5).oldestAge());
        assertEquals("", rows.get(3).oldestAge(), "no backlog, no age");
    }

    @Test
    void aTenantWhoseOriginIsNotAllowedIsHeldAndSaysWhyAndStoredErrorsAreShownClean() {
        QueueSnapshot snapshot = new QueueSnapshot(NOW, 0, 0, 0, 0, List.of(
                new TenantRow("held-origin", 2, 30, 0, null, null, null, 0, null, false),
                new TenantRow("failing", 3, 60, 4, LATER, 500, "HTTP 500: \u001b[2Jboom\u202e", 0, null, false)));
        String why = "'originUrl' host evil.example.net is not allowed";
        Map<String, DrainView> views = Map.of("held-origin", new DrainView(false, 0, false, null, 0, why));

        List<StatusBoard.Row> rows = StatusBoard.rows(snapshot, views::get, NOW);

        assertEquals(StatusBoard.State.HELD, rows.get(0).state(), "held comes before backing off");
        assertEquals(why, rows.get(0).lastError());
        assertEquals("HTTP 500: [2Jboom", rows.get(1).lastError(), "a row stored before errors were cleaned");
    }

    @Test
    void eachRowSaysWhatAnEventOverTheLimitGetsWhenTheTenantIsLoadedHere() {
        QueueSnapshot snapshot = new QueueSnapshot(NOW, 0, 0, 0, 0, List.of(
                new TenantRow("github", 2, 30, 0, null, null, null, 0, null, false),
                new TenantRow("slack", 2, 20, 0, null, null, null, 0, null, false),
                new TenantRow("stripe", 2, 10, 0, null, null, null, 0, null, false),
                new TenantRow("elsewhere", 2, 5, 0, null, null, null, 0, null, false)));
        Map<String, SenderRetries> senders = Map.of("github", SenderRetries.NEVER, "slack", SenderRetries.BRIEFLY,
                "stripe", SenderRetries.LONG);

        List<StatusBoard.Row> rows = StatusBoard.rows(snapshot, id -> null, senders::get, NOW);

        assertEquals(List.of("store (never)", "store (briefly)", "refuse (long)", ""),
                rows.stream().map(StatusBoard.Row::overLimit).toList(), "not loaded on this replica: empty");
    }

    @Test
    void agesReadAtAGlance() {
        assertEquals("42s", StatusBoard.age(42));
        assertEquals("3m 12s", StatusBoard.age(192));
        assertEquals("5h 03m", StatusBoard.age(5 * 3600 + 180));
        assertEquals("2d 04h", StatusBoard.age(2 * 86_400 + 4 * 3600 + 59));
    }
}
