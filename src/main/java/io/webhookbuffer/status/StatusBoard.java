package io.webhookbuffer.status;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Function;

import io.webhookbuffer.common.UntrustedText;
import io.webhookbuffer.delivery.DrainView;
import io.webhookbuffer.queue.QueueSnapshot;
import io.webhookbuffer.verify.SenderRetries;

/**
 * What the status page shows, computed from the backlog snapshot (every replica's view: PostgreSQL) and this replica's
 * drainer state (breakers). Pure: the ordering rules are tested without a server.
 *
 * <p>Sorted by what needs attention: an open breaker first, then tenants whose batches are held (their stored origin
 * is not allowed now), then tenants whose delivery fails (backing off: the head
 * event has a failed attempt), then
 * tenants with dead letters, then tenants an operator paused (delivery held on purpose), then the rest; within each,
 * the oldest pending event first.
 */
public final class StatusBoard {

    /** How many of this replica's latest refusals the page lists. */
    static final int REFUSALS_SHOWN = 20;

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss 'UTC'").withZone(ZoneOffset.UTC);

    /** The delivery states, in the order of attention. */
    public enum State {
        CIRCUIT_OPEN("circuit open", "bad"), HELD("held: origin not allowed", "bad"), BACKING_OFF("backing off", "bad"),
        DEAD_LETTERS("dead letters", "warn"),
        PAUSED("paused", "warn"), OK("ok", "ok");

        public final String text;
        public final String css;

        State(String text, String css) {
            this.text = text;
            this.css = css;
        }
    }

    /**
     * One tenant's line. {@code overLimit}: what its admission policy makes of an event over its rate limit, with what
     * its sender does after a refusal ({@link #overLimit}); empty when the tenant is not loaded on this replica.
     */
    public record Row(String tenantId, long backlog, long oldestAgeSeconds, String oldestAge, State state,
            String stateDetail, long deadLetters, String lastError, String overLimit) {
        public String stateText() {
            return stateDetail == null ? state.text : state.text + " " + stateDetail;
        }
    }

    private StatusBoard() {
    }

    public static List<Row> rows(QueueSnapshot snapshot, Function<String, DrainView> drains, Instant now) {
        return rows(snapshot, drains, tenantId -> null, now);
    }

    /** As above, with each tenant's sender ({@code senders}: null when the tenant is not loaded on this replica). */
    public static List<Row> rows(QueueSnapshot snapshot, Function<String, DrainView> drains,
            Function<String, SenderRetries> senders, Instant now) {
        List<Row> rows = new ArrayList<>(snapshot.rows().size());
        for (QueueSnapshot.TenantRow t : snapshot.rows()) {
            DrainView view = drains.apply(t.tenantId());
            State state;
            String detail = null;
            // The head of the queue carries the origin's last failed answer (any replica's): delivery is failing.
            boolean failing = t.events() > 0 && t.headAttempts() > 0 && (t.lastError() != null || t.lastStatus() != null);
            if (t.paused()) {
                // Held by a command: nothing is attempted, so neither the breaker nor the backoff applies.
                state = State.PAUSED;
            } else if (view != null && view.circuitOpen() && t.events() > 0) {
                state = State.CIRCUIT_OPEN;
            } else if (view != null && view.held() != null && t.events() > 0) {
                // Its stored originUrl is not allowed now: nothing is sent, nothing counted (see the drainer).
                state = State.HELD;
            } else if (failing) {
                state = State.BACKING_OFF;
                detail = t.nextAttemptAt() != null && t.nextAttemptAt().toInstant().isAfter(now)
                        ? "until " + TIME.format(t.nextAttemptAt().toInstant())
                        : "(attempt " + (t.headAttempts() + 1) + " due)";
            } else if (t.deadLetters() > 0) {
                state = State.DEAD_LETTERS;
            } else {
                state = State.OK;
            }
            String error = state == State.HELD ? view.held() : t.lastError() != null ? describe(t.lastStatus(), t.lastError())
                    : view != null && view.lastError() != null ? describe(view.lastStatus(), view.lastError()) : "";
            rows.add(new Row(t.tenantId(), t.events(), t.oldestAgeSeconds(), t.events() == 0 ? "" : age(t.oldestAgeSeconds()),
                    state, detail, t.deadLetters(), error, overLimit(senders.apply(t.tenantId()))));
        }
        rows.sort(Comparator.comparing(Row::state).thenComparing(Comparator.comparingLong(Row::oldestAgeSeconds).reversed())
                .thenComparing(Comparator.comparingLong(Row::deadLetters).reversed()).thenComparing(Row::tenantId));
        return rows;
    }

    /**
     * The tenant's admission policy as the tenant view names it ({@code overLimit}: store or refuse) and its sender's
     * {@code senderRetries} (docs/providers.md): "store (never)", "refuse (long)"; empty when not known here.
     */
    static String overLimit(SenderRetries sender) {
        if (sender == null) {
            return "";
        }
        return (sender.refusesOverLimit() ? "refuse" : "store") + " (" + sender.label() + ")";
    }

    /** The error as stored, cleaned again for the page ({@link UntrustedText}): rows stored before it was are too. */
    private static String describe(Integer status, String stored) {
        String error = UntrustedText.clean(stored);
        if (status == null || status <= 0 || error.startsWith("HTTP " + status)) {
            return error;
        }
        return "HTTP " + status + ": " + error;
    }

    /** "42s", "3m 12s", "5h 03m", "2d 04h". */
    public static String age(long seconds) {
        if (seconds < 60) {
            return seconds + "s";
        }
        if (seconds < 3600) {
            return seconds / 60 + "m " + String.format("%02ds", seconds % 60);
        }
        if (seconds < 86_400) {
            return seconds / 3600 + "h " + String.format("%02dm", seconds % 3600 / 60);
        }
        return seconds / 86_400 + "d " + String.format("%02dh", seconds % 86_400 / 3600);
    }

    public static String time(Instant instant) {
        return instant == null ? "never" : TIME.format(instant);
    }

    public static String time(OffsetDateTime time) {
        return time == null ? "" : TIME.format(time.toInstant());
    }
}
