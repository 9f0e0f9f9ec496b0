package io.webhookbuffer.queue;

import java.util.function.Consumer;

/**
 * Where a tenant's actor sends an event it decided to store: {@link GroupCommitWriter} for every real tenant, and
 * {@link RehearsalWriter} for the warm-up's rehearsal tenant, whose events are written and rolled back.
 */
public interface EventWriter {

    /** Queues the event; the callback runs exactly once, off the caller's thread, with what became of it. */
    void write(IncomingEvent event, Consumer<StoreOutcome> callback);
}
