package io.webhookbuffer.metrics;

import static io.webhookbuffer.metrics.MetricNames.ACTORS_LIVE;
import static io.webhookbuffer.metrics.MetricNames.COMMITS;
import static io.webhookbuffer.metrics.MetricNames.COMMITTED_EVENTS;
import static io.webhookbuffer.metrics.MetricNames.COMMIT_SECONDS;
import static io.webhookbuffer.metrics.MetricNames.DEAD_LETTERED;
import static io.webhookbuffer.metrics.MetricNames.DELIVERED;
import static io.webhookbuffer.metrics.MetricNames.FAILED_BATCHES;
import static io.webhookbuffer.metrics.MetricNames.INGRESS_IN_FLIGHT;
import static io.webhookbuffer.metrics.MetricNames.MAILBOX_DEPTH;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.StartupEvent;
import io.webhookbuffer.actor.TenantActors;
import io.webhookbuffer.delivery.Drainer;
import io.webhookbuffer.ingress.InFlightBytes;
import io.webhookbuffer.queue.BatchStats;
import io.webhookbuffer.queue.GroupCommitWriter;

/**
 * Group-commit, delivery-total, ingress and actor meters over the other packages' counters (names:
 * {@link MetricNames}).
 */
@ApplicationScoped
public class CoreMetrics {

    void register(@Observes StartupEvent event, MeterRegistry registry, GroupCommitWriter writer, TenantActors actors,
            Drainer drainer, InFlightBytes inFlight) {
        BatchStats stats = writer.stats();
        FunctionCounter.builder(COMMITS.name(), stats, BatchStats::commits)
                .description(COMMITS.description()).register(registry);
        FunctionCounter.builder(COMMITTED_EVENTS.name(), stats, BatchStats::events)
                .description(COMMITTED_EVENTS.description()).register(registry);
        FunctionCounter.builder(COMMIT_SECONDS.name(), stats, BatchStats::commitSeconds)
                .description(COMMIT_SECONDS.description()).register(registry);
        FunctionCounter.builder(DELIVERED.name(), drainer, Drainer::delivered)
                .description(DELIVERED.description()).register(registry);
        FunctionCounter.builder(DEAD_LETTERED.name(), drainer, Drainer::deadLettered)
                .description(DEAD_LETTERED.description()).register(registry);
        FunctionCounter.builder(FAILED_BATCHES.name(), drainer, Drainer::failedBatches)
                .description(FAILED_BATCHES.description()).register(registry);
        Gauge.builder(INGRESS_IN_FLIGHT.name(), inFlight, InFlightBytes::held)
                .description(INGRESS_IN_FLIGHT.description()).register(registry);
        Gauge.builder(ACTORS_LIVE.name(), actors, TenantActors::size)
                .description(ACTORS_LIVE.description()).register(registry);
        Gauge.builder(MAILBOX_DEPTH.name(), actors, TenantActors::mailboxDepth)
                .description(MAILBOX_DEPTH.description()).register(registry);
    }
}
