package io.webhookbuffer.queue;

import java.util.function.Consumer;

/**
 * Where a tenant's actor sends an event it decided to store: {@link GroupCommitWriter}, unless the tenant's sinks name
 * another writer (ingress.TenantSinks).
 */
public interface EventWriter {

    /** Queues the event; the callback runs exactly once, off the caller's thread, with what became of it. */
    void write(IncomingEvent event, Consumer<StoreOutcome> callback);
}
