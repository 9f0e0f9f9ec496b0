package io.webhookbuffer.usage;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.List;

/**
 * A tenant's current billing period (pure): periods start at the anchor and repeat at the cadence. Months are
 * counted from the anchor each time (anchor Jan 31 → Feb 28/29 → Mar 31), never chained.
 */
public record BillingPeriod(OffsetDateTime startsAt, OffsetDateTime endsAt, String cadence) {

    public static final List<String> CADENCES = List.of("monthly", "weekly", "daily");
    /** The anchor of a tenant without one: calendar periods (monthly = from the first of each month, UTC). */
    public static final OffsetDateTime DEFAULT_ANCHOR = OffsetDateTime.of(2000, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC);
    /** The longest period: a tenant whose last counted hour is older than this has no activity in its period. */
    public static final Duration LONGEST = Duration.ofDays(31);
    private static final DateTimeFormatter ISO_MILLIS = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'");

    /** The period containing {@code now}; a null anchor is {@link #DEFAULT_ANCHOR}. */
    public static BillingPeriod containing(OffsetDateTime anchor, String cadence, OffsetDateTime now) {
        OffsetDateTime a = (anchor == null ? DEFAULT_ANCHOR : anchor).withOffsetSameInstant(ZoneOffset.UTC);
        OffsetDateTime t = now.withOffsetSameInstant(ZoneOffset.UTC);
        if ("monthly".equals(cadence)) {
            long k = ChronoUnit.MONTHS.between(a, t);
            while (a.plusMonths(k).isAfter(t)) {
                k--;
            }
            while (!a.plusMonths(k + 1).isAfter(t)) {
                k++;
            }
            return new BillingPeriod(a.plusMonths(k), a.plusMonths(k + 1), cadence);
        }
        Duration length = switch (cadence) {
            case "weekly" -> Duration.ofDays(7);
            case "daily" -> Duration.ofDays(1);
            default -> throw new IllegalArgumentException("unknown billing cadence " + cadence);
        };
        long k = Math.floorDiv(Duration.between(a, t).toMillis(), length.toMillis());
        OffsetDateTime start = a.plus(length.multipliedBy(k));
        return new BillingPeriod(start, start.plus(length), cadence);
    }

    /** {@code billing_anchor:<ISO start>}, e.g. {@code billing_anchor:2026-07-01T00:00:00.000Z}. */
    public String periodKey() {
        return "billing_anchor:" + iso(startsAt);
    }

    public static String iso(OffsetDateTime time) {
        return ISO_MILLIS.format(time.withOffsetSameInstant(ZoneOffset.UTC));
    }
}
