package io.webhookbuffer.tenant;

import java.util.concurrent.CancellationException;

/**
 * A tenant lookup refused (the tenant ids not read yet, or the origin's bulkhead,
 * {@code buffer.tenants.origin-pull.*}, full) before it reached PostgreSQL or the origin: nothing is known of the id,
 * so ingress answers 503 with {@code Retry-After}, never 404. A {@link CancellationException} (the lookup was
 * cancelled before it ran) because Caffeine logs every other failed load at WARNING: under a flood, one line per
 * refused request. No stack trace either: under a flood it is a routine answer.
 */
public final class LookupRefused extends CancellationException {

    LookupRefused(String why) {
        super(why);
    }

    @Override
    public synchronized Throwable fillInStackTrace() {
        return this;
    }
}
