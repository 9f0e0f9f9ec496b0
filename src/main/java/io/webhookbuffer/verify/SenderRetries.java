package io.webhookbuffer.verify;

import java.util.Locale;

/**
 * What a sender does after the buffer refuses one of its events (docs/providers.md, "What a sender does after a
 * refusal"): the admission policy over the tenant's rate limit follows from it. A sender that retries long enough gets
 * {@code 429} with {@code Retry-After} and sends the event again later; for one that does not, a refusal loses the
 * event, so it is stored and its delivery paced by the limit instead (ARCHITECTURE.md, invariant 11).
 */
public enum SenderRetries {
    /** Never resends by itself (GitHub): a refusal is a lost event. The cautious default where nothing is known. */
    NEVER,
    /** A few times within minutes (Slack): a refusal that lasts a rate window can outlive every retry. */
    BRIEFLY,
    /** For an hour or more (Stripe 3 days, Svix about a day, Shopify 4 hours): the sender outlasts a rate window. */
    LONG;

    /** The name used in the tenant command, the metric label and the refusals: lower case. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Whether an event over the tenant's rate limit is refused (429) rather than stored and paced. */
    public boolean refusesOverLimit() {
        return this == LONG;
    }

    /** The value named {@code label}, or null when it names none. */
    public static SenderRetries of(String label) {
        for (SenderRetries value : values()) {
            if (value.label().equals(label)) {
                return value;
            }
        }
        return null;
    }
}
