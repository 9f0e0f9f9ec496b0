package io.webhookbuffer.usage;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.OffsetDateTime;

import org.junit.jupiter.api.Test;

/** Billing periods from an anchor and a cadence (pure). */
class BillingPeriodTests {

    private static OffsetDateTime t(String iso) {
        return OffsetDateTime.parse(iso);
    }

    @Test
    void calendarMonthsByDefault() {
        BillingPeriod p = BillingPeriod.containing(null, "monthly", t("2026-07-28T06:00:00Z"));
        assertEquals(t("2026-07-01T00:00:00Z"), p.startsAt());
        assertEquals(t("2026-08-01T00:00:00Z"), p.endsAt());
        assertEquals("billing_anchor:2026-07-01T00:00:00.000Z", p.periodKey());
    }

    @Test
    void monthsCountFromTheAnchorNeverChained() {
        OffsetDateTime anchor = t("2026-01-31T10:00:00Z");
        BillingPeriod feb = BillingPeriod.containing(anchor, "monthly", t("2026-03-01T00:00:00Z"));
        assertEquals(t("2026-02-28T10:00:00Z"), feb.startsAt());
        assertEquals(t("2026-03-31T10:00:00Z"), feb.endsAt());
        BillingPeriod exact = BillingPeriod.containing(anchor, "monthly", t("2026-03-31T10:00:00Z"));
        assertEquals(t("2026-03-31T10:00:00Z"), exact.startsAt(), "the start is in its period, the end is not");
    }

    @Test
    void weeklyAndDailyAndTimesBeforeTheAnchor() {
        OffsetDateTime anchor = t("2026-01-15T06:00:00Z");
        BillingPeriod w = BillingPeriod.containing(anchor, "weekly", t("2026-01-29T05:59:59Z"));
        assertEquals(t("2026-01-22T06:00:00Z"), w.startsAt());
        assertEquals(t("2026-01-29T06:00:00Z"), w.endsAt());
        BillingPeriod before = BillingPeriod.containing(anchor, "daily", t("2026-01-14T07:00:00Z"));
        assertEquals(t("2026-01-14T06:00:00Z"), before.startsAt());
        BillingPeriod monthBefore = BillingPeriod.containing(anchor, "monthly", t("2025-12-20T00:00:00Z"));
        assertEquals(t("2025-12-15T06:00:00Z"), monthBefore.startsAt());
    }
}
