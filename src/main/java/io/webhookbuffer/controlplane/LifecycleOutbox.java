package io.webhookbuffer.controlplane;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.Startup;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import io.webhookbuffer.queue.QueueConfig;
import io.webhookbuffer.usage.BillingPeriod;
import io.webhookbuffer.usage.UsageFlusher;

/**
 * Lifecycle events up: every {@code buffer.lifecycle.interval}, one replica scans state for milestones into the
 * {@code lifecycle_events} outbox (deduplicated on dedupeKey), then POSTs the undelivered events to
 * {@code {buffer.control.url}/lifecycle-events} as {@code {"events": [...]}}, signed, in batches of
 * {@link #BATCH_SIZE} (50), oldest first, until the outbox is empty or a batch is not taken. A 2xx marks a
 * batch delivered. A refusal (a 4xx that judges the events: not 401, 403, 404, 408 or 429) is halved until the refused
 * event is alone; that event is set aside (refused_at, the answer in last_error, a WARN and
 * {@code buffer_lifecycle_refused_total}) and never sent again, so it cannot hold back the events behind it. Anything
 * else (no answer, 5xx, 3xx, the statuses above) counts an attempt on the batch and ends the run: the receiver is
 * unavailable, and the next run starts again from the oldest (at-least-once: the control plane dedupes on id or
 * dedupeKey).
 */
@ApplicationScoped
@Startup // the counter is exported from the start, not from the first run an hour later
public class LifecycleOutbox {

    private static final Logger LOG = Logger.getLogger(LifecycleOutbox.class);
    /** Where lifecycle events go, under {@code buffer.control.url}: the control plane's API, not a setting. */
    static final String PATH = "/lifecycle-events";
    /**
     * Most events per POST. A run sends batch after batch until the outbox is empty, so the size sets the number of
     * requests, not what is delivered; 50 events of a few hundred bytes each keep a POST far below any body limit the
     * control plane may have, and a refused batch is halved down to the refused event. Was {@code
     * buffer.lifecycle.batch-size}.
     */
    static final int BATCH_SIZE = 50;

    /** Its name and description are metrics.MetricNames.LIFECYCLE_REFUSED (ManifestTests holds them together). */
    static final String REFUSED_METRIC = "buffer.lifecycle.refused";

    private final LifecycleStore store;
    private final UsageFlusher flusher;
    private final ControlPlaneClient client;
    private final OneReplicaJobs claims;
    private final LifecycleConfig config;
    private final ObjectMapper json;
    private final Duration kept;
    private final Counter refusedCounter;

    /** What one delivery did: events delivered, set aside (refused alone), and left for the next run (failed). */
    public record Delivery(int delivered, int refused, int failed) {

        static final Delivery NONE = new Delivery(0, 0, 0);

        Delivery plus(Delivery other) {
            return new Delivery(delivered + other.delivered, refused + other.refused, failed + other.failed);
        }
    }

    /** What one run did: events the scan wrote, and what the delivery did. */
    public record Run(int written, Delivery delivery) {
    }

    public LifecycleOutbox(LifecycleStore store, UsageFlusher flusher, ControlPlaneClient client, OneReplicaJobs claims,
            LifecycleConfig config, ObjectMapper json, QueueConfig queue, MeterRegistry registry) {
        this.store = store;
        this.flusher = flusher;
        this.client = client;
        this.claims = claims;
        this.config = config;
        this.json = json;
        this.kept = queue.deadLetterRetention();
        this.refusedCounter = Counter.builder(REFUSED_METRIC)
                .description("Lifecycle events the control plane refused alone (a 4xx after halving): set aside, not"
                        + " sent again, kept for buffer.queue.dead-letter-retention")
                .register(registry);
    }

    @Scheduled(every = "${buffer.lifecycle.interval:1h}", delayed = "${buffer.lifecycle.interval:1h}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = Scheduled.ApplicationNotRunning.class, identity = "lifecycle-outbox")
    Uni<Void> scheduled() {
        return claims.runIfClaimed("lifecycle-outbox", config.interval(), this::run);
    }

    /** Scans (this replica's counts flushed first, so its firsts are seen), then delivers the outbox. */
    public Uni<Run> run() {
        return flusher.flush().flatMap(n -> scan())
                .flatMap(written -> deliver().map(delivery -> new Run(Math.max(written, 0), delivery)));
    }

    /** Writes the milestones that hold now; -1 when another replica is scanning. */
    public Uni<Integer> scan() {
        OffsetDateTime firstsSince = OffsetDateTime.now(ZoneOffset.UTC).minus(BillingPeriod.LONGEST);
        return store.scan(firstsSince, config.originFailingAfter().toMillis(), config.backlogThreshold());
    }

    /**
     * Sends the undelivered events, oldest first, a batch at a time, until none is left after the last one read or a
     * batch is not taken. Each event is read at most once per run (the read starts after the last id sent), so a run
     * ends. Without {@code buffer.control.url} nothing is sent and the outbox keeps them.
     */
    public Uni<Delivery> deliver() {
        if (!client.configured()) {
            return Uni.createFrom().item(Delivery.NONE);
        }
        return deliverAfter(0, Delivery.NONE);
    }

    private Uni<Delivery> deliverAfter(long afterId, Delivery soFar) {
        return store.undelivered(afterId, BATCH_SIZE).flatMap(events -> {
            if (events.isEmpty()) {
                return Uni.createFrom().item(soFar);
            }
            long last = events.get(events.size() - 1).id();
            return send(events).flatMap(sent -> sent.failed() > 0
                    ? Uni.createFrom().item(soFar.plus(sent))
                    : deliverAfter(last, soFar.plus(sent)));
        });
    }

    /**
     * One batch: taken, delivered; refused, halved (each half sent in turn, the second only if the first was not
     * left failing) until a refused event is alone, which is set aside; otherwise an attempt on each, left failing.
     */
    private Uni<Delivery> send(List<LifecycleStore.LifecycleEvent> events) {
        Long[] ids = events.stream().map(LifecycleStore.LifecycleEvent::id).toArray(Long[]::new);
        return post(events).flatMap(status -> {
            if (status != null && status / 100 == 2) {
                return store.markDelivered(ids).replaceWith(new Delivery(ids.length, 0, 0));
            }
            if (status != null && refused(status) && events.size() > 1) {
                int half = events.size() / 2;
                return send(events.subList(0, half)).flatMap(first -> first.failed() > 0
                        ? Uni.createFrom().item(first)
                        : send(events.subList(half, events.size())).map(first::plus));
            }
            if (status != null && refused(status)) {
                return setAside(events.get(0), status);
            }
            String error = status == null ? "no answer" : "control plane answered " + status;
            LOG.warnf("%d lifecycle event(s) not delivered (%s); they go again next run", ids.length, error);
            return store.markFailed(ids, error).replaceWith(new Delivery(0, 0, ids.length));
        });
    }

    /** The control plane's status, or null when it gave none (no answer, or the push was not sent). */
    private Uni<Integer> post(List<LifecycleStore.LifecycleEvent> events) {
        byte[] body;
        try {
            body = json.writeValueAsBytes(Map.of("events", events.stream().map(LifecycleOutbox::wire).toList()));
        } catch (JsonProcessingException e) {
            return Uni.createFrom().failure(e);
        }
        return client.post(PATH, body).onFailure().invoke(f -> LOG.debugf("lifecycle push: %s", f.getMessage()))
                .onFailure().recoverWithNull();
    }

    private Uni<Delivery> setAside(LifecycleStore.LifecycleEvent event, int status) {
        String reason = "refused by the control plane: " + status + " (set aside, not sent again)";
        LOG.warnf("lifecycle event %d (%s, %s) refused by the control plane with %d: set aside, not sent again, kept"
                + " %s (buffer.queue.dead-letter-retention); the events behind it go on", event.id(), event.type(),
                event.dedupeKey(), status, kept);
        refusedCounter.increment();
        return store.setAside(event.id(), reason).replaceWith(new Delivery(0, 1, 0));
    }

    /**
     * A 4xx that judges the events (as delivery.FailurePolicy reads an origin's): not 401/403 (our signature or
     * credentials), 404 (a wrong URL), 408 or 429 (busy), which say nothing about the events.
     */
    static boolean refused(int status) {
        return status >= 400 && status < 500 && status != 401 && status != 403 && status != 404 && status != 408
                && status != 429;
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
