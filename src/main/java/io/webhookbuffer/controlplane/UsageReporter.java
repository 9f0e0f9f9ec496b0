package io.webhookbuffer.controlplane;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.webhookbuffer.usage.BillingPeriod;
import io.webhookbuffer.usage.UsageConfig;
import io.webhookbuffer.usage.UsageCounters;
import io.webhookbuffer.usage.UsageFlusher;
import io.webhookbuffer.usage.UsageMetric;
import io.webhookbuffer.usage.UsageStore;

/**
 * Usage up: every {@code buffer.usage.interval}, one replica computes a FULL snapshot of the current billing period
 * of each tenant with activity in it and POSTs each to {@code {buffer.control.url}/usage}, signed. Never deltas, so
 * the control plane upserts on (tenantId, periodKey): the same snapshot twice, or five missed and the sixth received,
 * leave the same state. Failure policy: a failed push is logged and dropped; there is no retry queue, because the
 * next run recomputes and resends the whole period.
 */
@ApplicationScoped
public class UsageReporter {

    private static final Logger LOG = Logger.getLogger(UsageReporter.class);
    private static final int CONCURRENT_PUSHES = 4;
    /** Where snapshots go, under {@code buffer.control.url}: the control plane's API, not a setting. */
    static final String PATH = "/usage";

    private final UsageStore store;
    private final UsageFlusher flusher;
    private final ControlPlaneClient client;
    private final OneReplicaJobs claims;
    private final UsageConfig config;
    private final ObjectMapper json;

    /** What one run did. */
    public record Report(int pushed, int failed) {
    }

    public UsageReporter(UsageStore store, UsageFlusher flusher, ControlPlaneClient client, OneReplicaJobs claims,
            UsageConfig config, ObjectMapper json) {
        this.store = store;
        this.flusher = flusher;
        this.client = client;
        this.claims = claims;
        this.config = config;
        this.json = json;
    }

    /** Not at start-up: the first run is one interval after it, on whichever replica claims the run. */
    @Scheduled(every = "${buffer.usage.interval:1h}", delayed = "${buffer.usage.interval:1h}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = Scheduled.ApplicationNotRunning.class, identity = "usage-report")
    Uni<Void> scheduled() {
        if (!client.configured()) {
            LOG.debug("buffer.control.url is not set: no usage snapshots are pushed");
            return Uni.createFrom().voidItem();
        }
        return claims.runIfClaimed("usage-report", config.interval(), this::report);
    }

    /** Flushes this replica's counts, then computes and pushes every active tenant's snapshot. */
    public Uni<Report> report() {
        return flusher.flush().flatMap(n -> snapshots(OffsetDateTime.now(ZoneOffset.UTC)))
                .flatMap(snapshots -> Multi.createFrom().iterable(snapshots)
                        .onItem().transformToUni(this::push).merge(CONCURRENT_PUSHES)
                        .collect().asList())
                .map(results -> {
                    int pushed = (int) results.stream().filter(ok -> ok).count();
                    return new Report(pushed, results.size() - pushed);
                });
    }

    /** The snapshots a run would push now, one per tenant with counted activity in its current period. */
    public Uni<List<Map<String, Object>>> snapshots(OffsetDateTime now) {
        return store.activeSince(now.minus(BillingPeriod.LONGEST)).flatMap(active -> {
            if (active.isEmpty()) {
                return Uni.createFrom().item(List.<Map<String, Object>>of());
            }
            List<String> ids = new ArrayList<>(active.size());
            Map<String, BillingPeriod> periods = new LinkedHashMap<>();
            for (UsageStore.ActiveTenant t : active) {
                ids.add(t.tenantId());
                periods.put(t.tenantId(), BillingPeriod.containing(t.billingAnchor(), t.billingCadence(), now));
            }
            return store.sums(ids, new ArrayList<>(periods.values())).map(sums -> {
                List<Map<String, Object>> out = new ArrayList<>(sums.size());
                for (UsageCounters.Counts c : sums) {
                    out.add(snapshot(c, periods.get(c.tenantId()), now));
                }
                return out;
            });
        });
    }

    static Map<String, Object> snapshot(UsageCounters.Counts counts, BillingPeriod period, OffsetDateTime now) {
        Map<String, Object> metrics = new LinkedHashMap<>();
        for (UsageMetric m : UsageMetric.values()) {
            metrics.put(m.jsonName(), counts.get(m));
        }
        Map<String, Object> periodJson = new LinkedHashMap<>();
        periodJson.put("startsAt", BillingPeriod.iso(period.startsAt()));
        periodJson.put("endsAt", BillingPeriod.iso(period.endsAt()));
        periodJson.put("cadence", period.cadence());
        Map<String, Object> snapshot = new LinkedHashMap<>();
        snapshot.put("tenantId", counts.tenantId());
        snapshot.put("periodKey", period.periodKey());
        snapshot.put("period", periodJson);
        snapshot.put("metrics", metrics);
        snapshot.put("generatedAt", BillingPeriod.iso(now));
        return snapshot;
    }

    private Uni<Boolean> push(Map<String, Object> snapshot) {
        byte[] body;
        try {
            body = json.writeValueAsBytes(snapshot);
        } catch (JsonProcessingException e) {
            return Uni.createFrom().failure(e);
        }
        Object tenant = snapshot.get("tenantId");
        return client.post(PATH, body)
                .map(status -> {
                    if (status / 100 != 2) {
                        LOG.warnf("usage snapshot of %s refused by the control plane (%d); the next run resends it",
                                tenant, status);
                    }
                    return status / 100 == 2;
                })
                .onFailure().recoverWithItem(f -> {
                    LOG.warnf("usage snapshot of %s not delivered (%s); the next run resends it", tenant, f.getMessage());
                    return false;
                });
    }
}
