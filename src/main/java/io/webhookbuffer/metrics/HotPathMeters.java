package io.webhookbuffer.metrics;

import static io.webhookbuffer.metrics.MetricNames.COMMIT_BATCH_SIZE;
import static io.webhookbuffer.metrics.MetricNames.COMMIT_LATENCY;
import static io.webhookbuffer.metrics.MetricNames.DELIVERY;
import static io.webhookbuffer.metrics.MetricNames.DELIVERY_LATENCY;
import static io.webhookbuffer.metrics.MetricNames.INGEST;
import static io.webhookbuffer.metrics.MetricNames.INGEST_ACK;
import static io.webhookbuffer.metrics.MetricNames.INGRESS_REFUSALS;
import static io.webhookbuffer.metrics.MetricNames.OUTCOME;
import static io.webhookbuffer.metrics.MetricNames.RATELIMIT_LEASE_LATENCY;
import static io.webhookbuffer.metrics.MetricNames.REASON;
import static io.webhookbuffer.metrics.MetricNames.SENDER_REFUSALS;
import static io.webhookbuffer.metrics.MetricNames.SENDER_RETRIES;
import static io.webhookbuffer.metrics.MetricNames.VERIFICATIONS_OFFLOADED;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import jakarta.enterprise.context.ApplicationScoped;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.webhookbuffer.ratelimit.shared.LeaseListener;
import io.webhookbuffer.delivery.DeliveryListener;
import io.webhookbuffer.ingress.EdgeRefusal;
import io.webhookbuffer.ingress.IngestOutcome;
import io.webhookbuffer.ingress.IngressListener;
import io.webhookbuffer.queue.CommitListener;
import io.webhookbuffer.verify.SenderRetries;

/**
 * The meters on the hot paths. Every (meter, outcome) pair is registered once at construction and indexed by the
 * outcome's ordinal, so recording is an array read and an increment: no tag list or lookup per event.
 */
@ApplicationScoped
public class HotPathMeters implements IngressListener, CommitListener, DeliveryListener, LeaseListener {

    /** Ack latency buckets: a 202 normally takes a few ms; providers time out at 5-30 s. */
    private static final Duration[] ACK_BUCKETS = millis(1, 2, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000);
    private static final Duration[] ORIGIN_BUCKETS = millis(5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000,
            30000);
    private static final double[] BATCH_BUCKETS = { 1, 2, 5, 10, 25, 50, 100, 250, 512, 1000 };

    private final Counter[] ingest;
    private final Counter[] refusals;
    /** By reason, then by {@link SenderRetries} ordinal; a reason not listed is counted as {@code other}. */
    private final Map<String, Counter[]> senderRefusals;
    private final Counter offloaded;
    private final Timer[] ack;
    private final Counter[] delivery;
    private final Timer originLatency;
    private final DistributionSummary batchSize;
    private final Timer commitLatency;
    private final Timer leaseLatency;

    public HotPathMeters(MeterRegistry registry) {
        IngestOutcome[] outcomes = IngestOutcome.values();
        ingest = new Counter[outcomes.length];
        ack = new Timer[outcomes.length];
        for (IngestOutcome o : outcomes) {
            ingest[o.ordinal()] = Counter.builder(INGEST.name()).description(INGEST.description())
                    .tag(OUTCOME, o.label()).register(registry);
            ack[o.ordinal()] = Timer.builder(INGEST_ACK.name()).description(INGEST_ACK.description())
                    .tag(OUTCOME, o.label()).serviceLevelObjectives(ACK_BUCKETS).register(registry);
        }
        EdgeRefusal[] reasons = EdgeRefusal.values();
        refusals = new Counter[reasons.length];
        for (EdgeRefusal r : reasons) {
            refusals[r.ordinal()] = Counter.builder(INGRESS_REFUSALS.name()).description(INGRESS_REFUSALS.description())
                    .tag(REASON, r.label()).register(registry);
        }
        senderRefusals = senderRefusals(registry);
        offloaded = Counter.builder(VERIFICATIONS_OFFLOADED.name()).description(VERIFICATIONS_OFFLOADED.description())
                .register(registry);
        Outcome[] deliveries = Outcome.values();
        delivery = new Counter[deliveries.length];
        for (Outcome o : deliveries) {
            delivery[o.ordinal()] = Counter.builder(DELIVERY.name()).description(DELIVERY.description())
                    .tag(OUTCOME, o.label()).register(registry);
        }
        originLatency = Timer.builder(DELIVERY_LATENCY.name()).description(DELIVERY_LATENCY.description())
                .serviceLevelObjectives(ORIGIN_BUCKETS).register(registry);
        batchSize = DistributionSummary.builder(COMMIT_BATCH_SIZE.name()).description(COMMIT_BATCH_SIZE.description())
                .serviceLevelObjectives(BATCH_BUCKETS).register(registry);
        commitLatency = Timer.builder(COMMIT_LATENCY.name()).description(COMMIT_LATENCY.description())
                .serviceLevelObjectives(ACK_BUCKETS).register(registry);
        leaseLatency = Timer.builder(RATELIMIT_LEASE_LATENCY.name()).description(RATELIMIT_LEASE_LATENCY.description())
                .serviceLevelObjectives(ACK_BUCKETS).register(registry);
    }

    @Override
    public void answered(IngestOutcome outcome, long elapsedNanos) {
        ingest[outcome.ordinal()].increment();
        ack[outcome.ordinal()].record(elapsedNanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void refused(EdgeRefusal reason) {
        refusals[reason.ordinal()].increment();
    }

    @Override
    public void senderRefused(String reason, SenderRetries retries) {
        Counter[] byRetries = senderRefusals.get(reason);
        (byRetries != null ? byRetries : senderRefusals.get(OTHER))[retries.ordinal()].increment();
    }

    private static final String OTHER = "other";
    private static final List<String> SENDER_REFUSAL_REASONS = List.of("rate_limited", "queue_quota", "handshake_rate",
            "tenant_overloaded", "not_stored", "replica_busy", "verification_busy", "lookup_busy", OTHER);

    private static Map<String, Counter[]> senderRefusals(MeterRegistry registry) {
        Map<String, Counter[]> byReason = new HashMap<>();
        for (String reason : SENDER_REFUSAL_REASONS) {
            Counter[] byRetries = new Counter[SenderRetries.values().length];
            for (SenderRetries retries : SenderRetries.values()) {
                byRetries[retries.ordinal()] = Counter.builder(SENDER_REFUSALS.name())
                        .description(SENDER_REFUSALS.description()).tag(REASON, reason)
                        .tag(SENDER_RETRIES, retries.label()).register(registry);
            }
            byReason.put(reason, byRetries);
        }
        return Map.copyOf(byReason);
    }

    @Override
    public void offloaded() {
        offloaded.increment();
    }

    @Override
    public void committed(int size, long nanos) {
        batchSize.record(size);
        commitLatency.record(nanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void attempted(Outcome outcome, long elapsedNanos) {
        delivery[outcome.ordinal()].increment();
        if (outcome != Outcome.CIRCUIT_OPEN) {
            originLatency.record(elapsedNanos, TimeUnit.NANOSECONDS);
        }
    }

    @Override
    public void answered(long nanos) {
        leaseLatency.record(nanos, TimeUnit.NANOSECONDS);
    }

    private static Duration[] millis(long... values) {
        Duration[] d = new Duration[values.length];
        for (int i = 0; i < values.length; i++) {
            d[i] = Duration.ofMillis(values[i]);
        }
        return d;
    }
}
