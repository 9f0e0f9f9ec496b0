package io.webhookbuffer.controlplane;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import io.webhookbuffer.usage.BillingPeriod;
import io.webhookbuffer.usage.UsageFlusher;

/**
 * Lifecycle events up: every {@code buffer.lifecycle.interval}, one replica scans state for milestones into the
 * {@code lifecycle_events} outbox (deduplicated on dedupeKey), then POSTs up to {@code buffer.lifecycle.batch-size}
 * undelivered events to {@code {buffer.control.url}/lifecycle-events} as {@code {"events": [...]}}, signed. A 2xx
 * marks them delivered; anything else counts an attempt on each and they go again next run (at-least-once: the
 * control plane dedupes on id or dedupeKey).
 */
@ApplicationScoped
public class LifecycleOutbox {

    private static final Logger LOG = Logger.getLogger(LifecycleOutbox.class);

    private final LifecycleStore store;
    private final UsageFlusher flusher;
    private final ControlPlaneClient client;
    private final JobClaims claims;
    private final LifecycleConfig config;
    private final ObjectMapper json;

    /** What one run did: events the scan wrote, events sent, and whether the control plane took them. */
    public record Run(int written, int sent, boolean delivered) {
    }

    public LifecycleOutbox(LifecycleStore store, UsageFlusher flusher, ControlPlaneClient client, JobClaims claims,
            LifecycleConfig config, ObjectMapper json) {
        this.store = store;
        this.flusher = flusher;
        this.client = client;
        this.claims = claims;
        this.config = config;
        this.json = json;
    }

    @Scheduled(every = "${buffer.lifecycle.interval:1h}", delayed = "${buffer.lifecycle.interval:1h}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = Scheduled.ApplicationNotRunning.class, identity = "lifecycle-outbox")
    Uni<Void> scheduled() {
        return claims.runIfClaimed("lifecycle-outbox", config.interval(), this::run);
    }

    /** Scans (this replica's counts flushed first, so its firsts are seen), then delivers one batch. */
    public Uni<Run> run() {
        return flusher.flush().flatMap(n -> scan()).flatMap(written -> deliver().map(
                sent -> new Run(Math.max(written, 0), Math.abs(sent), sent > 0)));
    }

    /** Writes the milestones that hold now; -1 when another replica is scanning. */
    public Uni<Integer> scan() {
        OffsetDateTime firstsSince = OffsetDateTime.now(ZoneOffset.UTC).minus(BillingPeriod.LONGEST);
        return store.scan(firstsSince, config.originFailingAfter().toMillis(), config.backlogThreshold());
    }

    /**
     * Sends the oldest undelivered events (at most batch-size); completes with the number delivered, or minus the
     * number that failed. Without {@code buffer.control.url} nothing is sent and the outbox keeps them.
     */
    public Uni<Integer> deliver() {
        if (!client.configured()) {
            return Uni.createFrom().item(0);
        }
        return store.undelivered(config.batchSize()).flatMap(events -> {
            if (events.isEmpty()) {
                return Uni.createFrom().item(0);
            }
            Long[] ids = events.stream().map(LifecycleStore.LifecycleEvent::id).toArray(Long[]::new);
            byte[] body;
            try {
                body = json.writeValueAsBytes(Map.of("events", events.stream().map(LifecycleOutbox::wire).toList()));
            } catch (JsonProcessingException e) {
                return Uni.createFrom().failure(e);
            }
            return client.post(config.path(), body)
                    .map(status -> status / 100 == 2 ? null : "control plane answered " + status)
                    .onFailure().recoverWithItem(f -> "no answer: " + f.getMessage())
                    .flatMap(error -> {
                        if (error == null) {
                            return store.markDelivered(ids).replaceWith(ids.length);
                        }
                        LOG.warnf("%d lifecycle event(s) not delivered (%s); they go again next run", ids.length, error);
                        return store.markFailed(ids, error).replaceWith(-ids.length);
                    });
        });
    }

    private static Map<String, Object> wire(LifecycleStore.LifecycleEvent e) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("id", e.id());
        out.put("dedupeKey", e.dedupeKey());
        out.put("type", e.type());
        out.put("tenantId", e.tenantId());
        out.put("occurredAt", BillingPeriod.iso(e.occurredAt()));
        out.put("data", e.data().getMap());
        return out;
    }

    /** The lifecycle event types, for documentation and tests. */
    public static final List<String> TYPES = List.of("first_event_accepted", "first_delivery", "first_dead_letter",
            "origin_failing", "origin_recovered", "backlog_high", "backlog_recovered", HandshakeWindows.OPENED_TYPE,
            HandshakeWindows.USED_TYPE);
}
