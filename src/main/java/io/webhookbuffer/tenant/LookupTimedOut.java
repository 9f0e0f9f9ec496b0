package io.webhookbuffer.tenant;

import java.time.Duration;
import java.util.concurrent.CancellationException;

/**
 * A tenant lookup a request waited for that did not end within {@code buffer.tenants.lookup-timeout} (the pool busy,
 * PostgreSQL stalled): the id may or may not be a tenant, so ingress answers 503 with {@code Retry-After}, never 404.
 * A {@link CancellationException}, like {@link LookupRefused}, because Caffeine logs every other failed load at
 * WARNING: while the database stalls, one line per request. No stack trace either.
 */
public final class LookupTimedOut extends CancellationException {

    LookupTimedOut(Duration deadline) {
        super("no answer to the tenant lookup within " + deadline.toMillis() + " ms");
    }

    @Override
    public synchronized Throwable fillInStackTrace() {
        return this;
    }
}
