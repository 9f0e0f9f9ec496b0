package io.webhookbuffer.usage;

import java.time.Duration;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.jboss.logging.Logger;

import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;

/**
 * Adds this replica's in-memory counts to PostgreSQL every 10 s and at shutdown.
 * Failure policy: a flush that fails gives its counts back to the counters and the next one carries them; only a
 * crash (no shutdown flush) loses counts, at most one flush interval's worth on that replica. Usage undercounts in
 * that case, never double-counts: a count is subtracted from memory before the upsert and given back only when the
 * upsert failed.
 */
@ApplicationScoped
public class UsageFlusher {

    private static final Logger LOG = Logger.getLogger(UsageFlusher.class);
    private static final Duration SHUTDOWN_PATIENCE = Duration.ofSeconds(5);

    private final UsageCounters counters;
    private final UsageStore store;

    public UsageFlusher(UsageCounters counters, UsageStore store) {
        this.counters = counters;
        this.store = store;
    }

    // The first flush comes one interval after start, not at start: the counters are empty then, and a flush the
    // scheduler fires up to a second late would catch the first events (UsageRestartIT caught it doing so).
    // Every 10 s: a crash loses at most that much of this replica's counts, and a flush is one statement.
    @Scheduled(every = "10s", delayed = "10s",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = Scheduled.ApplicationNotRunning.class, identity = "usage-flush")
    Uni<Void> scheduled() {
        return flush().onFailure().recoverWithNull().replaceWithVoid();
    }

    /** Stores what was counted since the last flush; completes with the number of tenants written. */
    public Uni<Integer> flush() {
        List<UsageCounters.Counts> counts = counters.drain();
        if (counts.isEmpty()) {
            return Uni.createFrom().item(0);
        }
        return store.flush(counts).map(v -> counts.size()).onFailure().invoke(failure -> {
            counters.restore(counts);
            LOG.warnf("usage flush failed (%s); %d tenant(s)' counts kept for the next flush", failure.getMessage(),
                    counts.size());
        });
    }

    void onShutdown(@Observes ShutdownEvent event) {
        try {
            flush().await().atMost(SHUTDOWN_PATIENCE);
        } catch (RuntimeException e) {
            LOG.warnf("usage flush at shutdown failed (%s); this replica's last counts are lost", e.getMessage());
        }
    }
}
