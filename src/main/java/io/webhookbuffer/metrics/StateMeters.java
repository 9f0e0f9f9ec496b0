package io.webhookbuffer.metrics;

import static io.webhookbuffer.metrics.MetricNames.BACKLOG_EVENTS;
import static io.webhookbuffer.metrics.MetricNames.BACKLOG_OLDEST_AGE;
import static io.webhookbuffer.metrics.MetricNames.BACKLOG_SNAPSHOT_AGE;
import static io.webhookbuffer.metrics.MetricNames.BACKLOG_TENANTS;
import static io.webhookbuffer.metrics.MetricNames.CIRCUITS_OPEN;
import static io.webhookbuffer.metrics.MetricNames.CIRCUIT_OPEN;
import static io.webhookbuffer.metrics.MetricNames.DEAD_LETTERS;
import static io.webhookbuffer.metrics.MetricNames.ORIGIN;
import static io.webhookbuffer.metrics.MetricNames.QUOTA_FULL_TENANTS;
import static io.webhookbuffer.metrics.MetricNames.QUOTA_NEAR_TENANTS;
import static io.webhookbuffer.metrics.MetricNames.STORAGE_USED;
import static io.webhookbuffer.metrics.MetricNames.READY;
import static io.webhookbuffer.metrics.MetricNames.RATELIMIT_FALLBACK;
import static io.webhookbuffer.metrics.MetricNames.RATELIMIT_LEASES;
import static io.webhookbuffer.metrics.MetricNames.RATELIMIT_REPLICAS;
import static io.webhookbuffer.metrics.MetricNames.REDIS_FALLBACK;
import static io.webhookbuffer.metrics.MetricNames.TENANT;
import static io.webhookbuffer.metrics.MetricNames.TENANT_BACKLOG_EVENTS;
import static io.webhookbuffer.metrics.MetricNames.TENANT_BACKLOG_OLDEST_AGE;

import java.util.ArrayList;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.eclipse.microprofile.health.Readiness;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;
import io.webhookbuffer.common.ConfigCheck;
import io.webhookbuffer.delivery.Drainer;
import io.webhookbuffer.health.DatabaseReadiness;
import io.webhookbuffer.health.RedisProbe;
import io.webhookbuffer.queue.QueueSnapshot;
import io.webhookbuffer.queue.QueueSnapshots;
import io.webhookbuffer.queue.QueuedBytes;
import io.webhookbuffer.ratelimit.shared.SharedWindows;

/**
 * Gauges over state kept elsewhere: the backlog snapshot (never a query per scrape), breakers, Redis and readiness.
 * The per-tenant and per-origin series are re-registered from each new snapshot / breaker set, which drops the rows
 * that left it: label cardinality stays at {@code buffer.metrics.top-tenants} and {@link MetricNames#MAX_ORIGIN_LABELS}.
 */
@ApplicationScoped
public class StateMeters {

    private final QueueSnapshots snapshots;
    private final Drainer drainer;
    private final MetricsConfig config;
    // @protectedby: this
    private MultiGauge tenantEvents;
    // @protectedby: this
    private MultiGauge tenantAge;
    // @protectedby: this
    private MultiGauge circuits;
    // @protectedby: this (the snapshot the tenant gauges were last built from)
    private QueueSnapshot published;
    // @protectedby: this
    private List<String> publishedOrigins = List.of();

    public StateMeters(QueueSnapshots snapshots, Drainer drainer, MetricsConfig config) {
        this.snapshots = snapshots;
        this.drainer = drainer;
        this.config = config;
    }

    synchronized void register(@Observes StartupEvent event, MeterRegistry registry, @Readiness DatabaseReadiness readiness,
            RedisProbe redis, SharedWindows leases, QueuedBytes queued) {
        // Checked here, not in ops: nothing outside metrics may depend on it (ArchitectureTests).
        new ConfigCheck().range("buffer.metrics.top-tenants", config.topTenants(), 0, 1000).throwIfAny();
        Gauge.builder(BACKLOG_EVENTS.name(), this, m -> m.current().events())
                .description(BACKLOG_EVENTS.description()).register(registry);
        Gauge.builder(BACKLOG_OLDEST_AGE.name(), this, m -> m.current().oldestAgeSeconds())
                .description(BACKLOG_OLDEST_AGE.description()).register(registry);
        Gauge.builder(BACKLOG_TENANTS.name(), this, m -> m.current().tenants())
                .description(BACKLOG_TENANTS.description()).register(registry);
        Gauge.builder(DEAD_LETTERS.name(), this, m -> m.current().deadLetters())
                .description(DEAD_LETTERS.description()).register(registry);
        // Counts, not a series per tenant: which tenants they are is the runbook's query (docs/runbook.md).
        Gauge.builder(QUOTA_NEAR_TENANTS.name(), queued, QueuedBytes::nearQuota)
                .description(QUOTA_NEAR_TENANTS.description()).register(registry);
        Gauge.builder(QUOTA_FULL_TENANTS.name(), queued, QueuedBytes::atQuota)
                .description(QUOTA_FULL_TENANTS.description()).register(registry);
        Gauge.builder(STORAGE_USED.name(), queued, QueuedBytes::storageUsed)
                .description(STORAGE_USED.description()).register(registry);
        Gauge.builder(BACKLOG_SNAPSHOT_AGE.name(), this, StateMeters::snapshotAge)
                .description(BACKLOG_SNAPSHOT_AGE.description()).register(registry);
        Gauge.builder(CIRCUITS_OPEN.name(), drainer, d -> d.openCircuits().size())
                .description(CIRCUITS_OPEN.description()).register(registry);
        Gauge.builder(REDIS_FALLBACK.name(), redis, r -> r.fallback() ? 1 : 0)
                .description(REDIS_FALLBACK.description()).register(registry);
        Gauge.builder(RATELIMIT_FALLBACK.name(), leases, l -> l.fallback() ? 1 : 0)
                .description(RATELIMIT_FALLBACK.description()).register(registry);
        Gauge.builder(RATELIMIT_REPLICAS.name(), leases, SharedWindows::replicas)
                .description(RATELIMIT_REPLICAS.description()).register(registry);
        for (String outcome : SharedWindows.OUTCOMES) {
            FunctionCounter.builder(RATELIMIT_LEASES.name(), leases, l -> l.count(outcome)).tag("outcome", outcome)
                    .description(RATELIMIT_LEASES.description()).register(registry);
        }
        Gauge.builder(READY.name(), readiness, r -> Math.max(0, r.lastUp()))
                .description(READY.description()).register(registry);
        tenantEvents = MultiGauge.builder(TENANT_BACKLOG_EVENTS.name())
                .description(TENANT_BACKLOG_EVENTS.description()).register(registry);
        tenantAge = MultiGauge.builder(TENANT_BACKLOG_OLDEST_AGE.name())
                .description(TENANT_BACKLOG_OLDEST_AGE.description()).register(registry);
        circuits = MultiGauge.builder(CIRCUIT_OPEN.name()).description(CIRCUIT_OPEN.description()).register(registry);
        publish();
    }

    private QueueSnapshot current() {
        return snapshots.last();
    }

    /**
     * Rebuilds the labelled series from the latest snapshot and breaker set (when they changed). On a schedule, not
     * inside a scrape, so a scrape never registers meters.
     */
    @Scheduled(every = "5s", concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    synchronized void publish() {
        if (tenantEvents == null) {
            return; // not registered yet
        }
        openOrigins();
        QueueSnapshot s = snapshots.last();
        if (s != published) {
            List<MultiGauge.Row<?>> events = new ArrayList<>();
            List<MultiGauge.Row<?>> ages = new ArrayList<>();
            for (QueueSnapshot.TenantRow row : s.rows()) {
                if (events.size() >= config.topTenants()) {
                    break;
                }
                if (row.events() > 0) { // rows are ordered by oldest pending age
                    events.add(MultiGauge.Row.of(Tags.of(TENANT, row.tenantId()), row.events()));
                    ages.add(MultiGauge.Row.of(Tags.of(TENANT, row.tenantId()), row.oldestAgeSeconds()));
                }
            }
            tenantEvents.register(events, true);
            tenantAge.register(ages, true);
            published = s;
        }
    }

    private void openOrigins() {
        List<String> open = drainer.openCircuits().stream().sorted().limit(MetricNames.MAX_ORIGIN_LABELS).toList();
        if (!open.equals(publishedOrigins)) {
            List<MultiGauge.Row<?>> rows = new ArrayList<>();
            open.forEach(origin -> rows.add(MultiGauge.Row.of(Tags.of(ORIGIN, origin), 1)));
            circuits.register(rows, true);
            publishedOrigins = open;
        }
    }

    private double snapshotAge() {
        return snapshots.ageSeconds();
    }
}
