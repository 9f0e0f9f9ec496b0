package io.webhookbuffer.metrics;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.StartupEvent;
import io.webhookbuffer.actor.TenantActors;
import io.webhookbuffer.delivery.Drainer;
import io.webhookbuffer.queue.BatchStats;
import io.webhookbuffer.queue.GroupCommitWriter;

/** Group-commit and actor meters. Names are {@code buffer_*} in Prometheus form. */
@ApplicationScoped
public class CoreMetrics {

    void register(@Observes StartupEvent event, MeterRegistry registry, GroupCommitWriter writer, TenantActors actors,
            Drainer drainer) {
        BatchStats stats = writer.stats();
        FunctionCounter.builder("buffer.queue.commits", stats, BatchStats::commits)
                .description("Group commits (one INSERT statement each) run against PostgreSQL").register(registry);
        FunctionCounter.builder("buffer.queue.committed.events", stats, BatchStats::events)
                .description("Events carried by group commits (divide by buffer_queue_commits for the mean batch)")
                .register(registry);
        FunctionCounter.builder("buffer.queue.commit.seconds", stats, BatchStats::commitSeconds)
                .description("Time spent waiting for group commits (divide by buffer_queue_commits for the mean)")
                .register(registry);
        FunctionCounter.builder("buffer.delivery.delivered", drainer, Drainer::delivered)
                .description("Events the origin accepted (rows deleted from the queue)").register(registry);
        FunctionCounter.builder("buffer.delivery.dead.lettered", drainer, Drainer::deadLettered)
                .description("Events moved to dead_letters").register(registry);
        FunctionCounter.builder("buffer.delivery.failed.batches", drainer, Drainer::failedBatches)
                .description("Batches the origin did not accept (retried, split or dead-lettered)").register(registry);
        Gauge.builder("buffer.actors.live", actors, TenantActors::size)
                .description("Tenant actors currently in memory").register(registry);
    }
}
