package io.webhookbuffer.delivery;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.jboss.logging.Logger;

import io.smallrye.mutiny.Uni;
import io.webhookbuffer.common.BufferClock;
import io.webhookbuffer.queue.DrainStore;
import io.webhookbuffer.queue.QueuedEvent;

/**
 * What an origin's answer does to the queue: {@link FailurePolicy}'s decision mapped to DrainStore calls, each fenced
 * by the tenant's lease token (a write that changes nothing means the lease was lost: {@link TenantLease#lost}). 2xx:
 * the events the origin listed as rejected go to dead_letters and the drain deletes the rest; SPLIT sends the first
 * half again at once; HOLD_ASIDE counts a try on the one event and holds it aside; DEAD_LETTER moves events to
 * dead_letters; RETRY counts a try on every event (dead-lettering those past max-age) and backs the tenant off; WAIT
 * (an open breaker) only waits.
 */
final class OutcomeWriter {

    private static final Logger LOG = Logger.getLogger(Drainer.class);

    private final DrainStore store;
    private final FailurePolicy policy;
    private final DeliveryCounts counts;
    private final BufferClock clock;
    /** What this replica has seen of each origin (keyed by base URL, bounded by the distinct origins). */
    private final Map<String, OriginHealth> health = new ConcurrentHashMap<>();

    OutcomeWriter(DrainStore store, FailurePolicy policy, DeliveryCounts counts, BufferClock clock) {
        this.store = store;
        this.policy = policy;
        this.counts = counts;
        this.clock = clock;
    }

    Uni<NextStep> decide(TenantLease lease, BatchHalving isolation, String base, List<QueuedEvent> batch,
            OriginResponse response,
            boolean isolationTry) {
        long now = clock.millis();
        OriginHealth seen = health.computeIfAbsent(base, b -> new OriginHealth());
        FailurePolicy.Verdict verdict = FailurePolicy.classify(response,
                response.status() == OriginBreakers.CIRCUIT_OPEN);
        if (verdict == FailurePolicy.Verdict.DELIVERED) {
            seen.succeeded(now);
            isolation.delivered();
            return accepted(lease, batch, response);
        }
        FailurePolicy.Decision decision = policy.onFailure(batch, response, verdict,
                isolation.context(seen, isolationTry, now));
        if (!isolationTry && (verdict == FailurePolicy.Verdict.SUSPECT
                || verdict == FailurePolicy.Verdict.UNAVAILABLE)) {
            seen.failed(now); // after the decision: it judged the origin by what came before this batch
        }
        isolation.failed(verdict, isolationTry);
        if (verdict != FailurePolicy.Verdict.CIRCUIT_OPEN) {
            counts.failedBatch();
        }
        return apply(lease, isolation, batch, response, verdict, decision, now);
    }

    private Uni<NextStep> apply(TenantLease lease, BatchHalving isolation, List<QueuedEvent> batch, OriginResponse response,
            FailurePolicy.Verdict verdict, FailurePolicy.Decision decision, long now) {
        Integer status = response.status() <= 0 ? null : response.status();
        switch (decision.action()) {
            case SPLIT -> {
                isolation.split(verdict, decision.limit());
                LOG.infof("tenant %s: origin %s a batch of %d (%s); retrying in halves to find the event",
                        lease.tenantId(), verdict == FailurePolicy.Verdict.REFUSED ? "refused" : "failed",
                        batch.size(), response.error());
                return countTry(lease, batch, response, status);
            }
            case HOLD_ASIDE -> {
                isolation.heldAside(!batch.get(0).heldAside());
                return holdAside(lease, batch.get(0), response, decision, status, now);
            }
            case DEAD_LETTER -> {
                isolation.deadLettered();
                return deadLetter(lease, decision.deadLetter(), status, decision.reason(), Map.of(), 1)
                        .replaceWith(NextStep.CONTINUE);
            }
            case RETRY -> {
                isolation.retried(batch.size(), decision.limit());
                return retryLater(lease, batch, response, decision, status);
            }
            default -> {
                isolation.settled();
                return Uni.createFrom().item(NextStep.waitUntil(now + decision.delayMillis()));
            }
        }
    }

    /**
     * A try counts in the events' attempts when it reached the origin (or may have: a timeout, a reset); a connection
     * refused, an address refused or a name that does not resolve never sent the batch. An open breaker sends nothing
     * and counts nothing ({@link FailurePolicy.Action#WAIT}).
     */
    private static int tries(OriginResponse response) {
        return response.unreachable() ? 0 : 1;
    }

    /** A halving try: it reached the origin with these events, so it counts in their attempts; the halves go now. */
    private Uni<NextStep> countTry(TenantLease lease, List<QueuedEvent> batch, OriginResponse response, Integer status) {
        Long[] ids = batch.stream().map(QueuedEvent::id).toArray(Long[]::new);
        return store.countTry(lease.tenantId(), lease.token(), ids, status, OriginResponse.truncate(response.error()))
                .map(rows -> rows == 0 ? lease.lost() : NextStep.CONTINUE);
    }

    /** 2xx: the rejected events to dead_letters, then the lease deletes the others and moves its cursor. */
    private Uni<NextStep> accepted(TenantLease lease, List<QueuedEvent> batch, OriginResponse response) {
        List<QueuedEvent> rejected = new ArrayList<>();
        List<Long> done = new ArrayList<>(batch.size());
        for (QueuedEvent e : batch) {
            if (response.rejected().containsKey(e.eventId())) {
                rejected.add(e);
            } else {
                done.add(e.id());
            }
        }
        Uni<Integer> deadLettering = rejected.isEmpty()
                ? Uni.createFrom().item(0)
                : deadLetter(lease, rejected, response.status(), null, response.rejected(), 1);
        long lastId = batch.get(batch.size() - 1).id();
        return deadLettering.flatMap(n -> lease.delete(done.toArray(Long[]::new), lastId));
    }

    /** The event failed alone: a try counted on it, held aside for its backoff; the tenant goes on at once. */
    private Uni<NextStep> holdAside(TenantLease lease, QueuedEvent held, OriginResponse response,
            FailurePolicy.Decision decision, Integer status, long now) {
        LOG.infof("tenant %s: event %s failed alone (%s); held aside for %d ms while the events behind it go on (%s)",
                lease.tenantId(), held.eventId(), response.error(), decision.delayMillis(), decision.ownFailure()
                        ? "counted: the origin accepted other batches since its last try"
                        : "not counted");
        return store.markFailed(lease.tenantId(), lease.token(), new Long[] { held.id() },
                now + decision.delayMillis(), status, OriginResponse.truncate(response.error()),
                decision.ownFailure() ? 1 : 0, now, 1)
                .map(rows -> rows == 0 ? lease.lost() : NextStep.CONTINUE);
    }

    /** The origin could not take the batch: a try counted on each event, the tenant backs off. */
    private Uni<NextStep> retryLater(TenantLease lease, List<QueuedEvent> batch, OriginResponse response,
            FailurePolicy.Decision decision, Integer status) {
        long delay = decision.delayMillis();
        Long[] ids = batch.stream().filter(e -> !decision.deadLetter().contains(e)).map(QueuedEvent::id)
                .toArray(Long[]::new);
        LOG.debugf("tenant %s: batch of %d failed (%s); next try in %d ms", lease.tenantId(), batch.size(),
                response.error(), delay);
        Uni<Integer> marked = ids.length == 0 ? Uni.createFrom().item(1)
                : store.markFailed(lease.tenantId(), lease.token(), ids, clock.millis() + delay, status,
                        OriginResponse.truncate(response.error()), 0, null, tries(response));
        return marked.flatMap(rows -> {
            if (rows == 0) {
                return Uni.createFrom().item(lease.lost());
            }
            if (decision.deadLetter().isEmpty()) {
                return Uni.createFrom().item(NextStep.waitUntil(clock.millis() + delay));
            }
            return deadLetter(lease, decision.deadLetter(), status, decision.reason(), Map.of(), tries(response))
                    .map(n -> ids.length == 0 ? NextStep.CONTINUE : NextStep.waitUntil(clock.millis() + delay));
        });
    }

    /**
     * Moves the events to dead_letters with {@code reason}, or with the origin's own reason in {@code perEvent};
     * {@code tries}: whether the try that failed them last counts in their attempts (see {@link #tries}).
     */
    private Uni<Integer> deadLetter(TenantLease lease, List<QueuedEvent> events, Integer status, String reason,
            Map<String, String> perEvent, int tries) {
        Long[] ids = new Long[events.size()];
        Integer[] statuses = new Integer[events.size()];
        String[] errors = new String[events.size()];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = events.get(i).id();
            statuses[i] = status;
            String own = perEvent.get(events.get(i).eventId());
            errors[i] = OriginResponse.truncate(own != null ? "rejected by origin: " + own : reason);
        }
        return store.deadLetter(lease.tenantId(), lease.token(), ids, statuses, errors, tries).invoke(n -> {
            counts.deadLettered(lease.tenantId(), n);
            LOG.infof("tenant %s: %d event(s) moved to dead_letters (%s)", lease.tenantId(), n, errors[0]);
        });
    }
}
