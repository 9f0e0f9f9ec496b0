package io.webhookbuffer.actor;

import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.jboss.logging.Logger;

import io.webhookbuffer.actor.IngestResult.Kind;
import io.webhookbuffer.common.BufferClock;
import io.webhookbuffer.queue.DrainScheduler;
import io.webhookbuffer.queue.EventWriter;
import io.webhookbuffer.queue.IncomingEvent;
import io.webhookbuffer.queue.QueuedBytes;
import io.webhookbuffer.queue.StoreOutcome;
import io.webhookbuffer.ratelimit.LeasedWindow;
import io.webhookbuffer.ratelimit.LeasedWindow.Slot;
import io.webhookbuffer.ratelimit.shared.SharedWindows;
import io.webhookbuffer.tenant.Tenant;

/**
 * One tenant's single-threaded executor: an ordered mailbox that runs on whichever thread finds it idle (an event
 * loop or the database client's I/O thread; every message is short and never blocks), for at most
 * {@link #TURN_LENGTH} messages before it hands the rest to a shared executor so one busy tenant cannot hold a thread.
 * Its {@link TenantPipeline} is touched only inside a turn.
 *
 * <p>With windows shared across replicas ({@link SharedWindows}), an event that finds no rate slot left waits, in
 * arrival order with every event behind it, for the lease the actor asked for (at most {@code
 * buffer.ratelimit.redis-timeout}; past it the local share admits); the actor asks for the next lease ahead, when half
 * of the current one is used, so events wait only when the tenant was idle.
 */
final class TenantActor {

    private static final Logger LOG = Logger.getLogger(TenantActor.class);
    /**
     * Messages an actor handles in one turn before it yields its thread: enough that a busy tenant's turn amortises
     * the hand-off, few enough that an event loop that found the actor idle is back to its other connections within
     * a few tens of microseconds.
     */
    static final int TURN_LENGTH = 64;
    /**
     * Recently accepted event ids each actor remembers, so a retried delivery is answered from memory; the database's
     * unique key stays the dedupe truth, so this only saves a round trip and need not be tuned.
     */
    static final int RECENT_IDS = 1000;

    private final String tenantId;
    private final ActorConfig config;
    private final EventWriter writer;
    private final DrainScheduler drains;
    private final Executor executor;
    private final BufferClock clock;
    private final ConcurrentLinkedQueue<Runnable> mailbox = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean scheduled = new AtomicBoolean();
    /** Events between arrival and answer: the mailbox bound. */
    private final AtomicInteger outstanding = new AtomicInteger();
    // @protectedby: the actor's turn (only touched by messages)
    private final TenantPipeline<CompletableFuture<IngestResult>> pipeline;
    /** null: this replica's own windows. */
    private final SharedWindows leases;
    /** The tenant's queued bytes as this replica knows them (the queue quota); null: no quota. */
    private final QueuedBytes queued;
    // @protectedby: the actor's turn. Events waiting for a lease, in arrival order.
    private final ArrayDeque<Waiting> waiting = new ArrayDeque<>();

    private record Waiting(Tenant tenant, IncomingEvent event, CompletableFuture<IngestResult> reply) {
    }

    TenantActor(String tenantId, ActorConfig config, EventWriter writer, DrainScheduler drains,
            Executor executor, BufferClock clock) {
        this(tenantId, config, writer, drains, executor, clock, null, null);
    }

    TenantActor(String tenantId, ActorConfig config, EventWriter writer, DrainScheduler drains,
            Executor executor, BufferClock clock, SharedWindows leases, QueuedBytes queued) {
        this.tenantId = tenantId;
        this.config = config;
        this.writer = writer;
        this.drains = drains;
        this.executor = executor;
        this.clock = clock;
        this.leases = leases;
        this.queued = queued;
        this.pipeline = leases == null ? new TenantPipeline<>(RECENT_IDS)
                : new TenantPipeline<>(RECENT_IDS, (limit, window) -> new LeasedWindow(limit, window,
                        SharedWindows.MAX_LEASE, SharedWindows.LEASE_PERIOD_SECONDS));
    }

    CompletableFuture<IngestResult> ingest(Tenant tenant, IncomingEvent event) {
        if (outstanding.incrementAndGet() > mailboxCapacity(tenant)) {
            outstanding.decrementAndGet();
            return CompletableFuture.completedFuture(
                    new IngestResult(Kind.OVERLOADED, event.eventId(), IngestResult.BUSY_RETRY_AFTER_SECONDS));
        }
        CompletableFuture<IngestResult> reply = new CompletableFuture<>();
        reply.whenComplete((result, failure) -> outstanding.decrementAndGet());
        tell(() -> admit(tenant, event, reply));
        return reply;
    }

    /**
     * The mailbox bound: {@code buffer.actor.mailbox-capacity}, twice that for a tenant whose sender does not retry
     * (issue 43: a refusal loses its event). Every event here has been verified, and its body is held until its answer
     * whatever the bound (bounded by the tenant's share of the in-flight bytes); the count only keeps a burst's answers
     * from waiting behind a long queue, and for a sender that will not resend, a later answer beats a refusal.
     */
    private int mailboxCapacity(Tenant tenant) {
        return tenant.storesOverLimit() ? 2 * config.mailboxCapacity() : config.mailboxCapacity();
    }

    int outstanding() {
        return outstanding.get();
    }

    private void admit(Tenant tenant, IncomingEvent event, CompletableFuture<IngestResult> reply) {
        if (!waiting.isEmpty() || !tryAdmit(tenant, event, reply)) {
            waiting.add(new Waiting(tenant, event, reply)); // behind those already waiting: order is kept
            askForLease(tenant, true);
        }
    }

    /** False when the event must wait for a lease (nothing was decided); else it was answered or is being written. */
    private boolean tryAdmit(Tenant tenant, IncomingEvent event, CompletableFuture<IngestResult> reply) {
        try {
            boolean decided = decide(tenant, event, reply);
            if (decided) {
                askForLease(tenant, false); // the next lease, ahead, when half of this one is used
            }
            return decided;
        } catch (RuntimeException e) {
            reply.complete(new IngestResult(Kind.UNAVAILABLE, event.eventId(), IngestResult.UNAVAILABLE_RETRY_AFTER_SECONDS));
            throw e;
        }
    }

    private void askForLease(Tenant tenant, boolean eventsWaiting) {
        LeasedWindow window = pipeline.window();
        LeasedWindow.LeaseRequest request = leases == null || window == null ? null
                : window.leaseWanted(clock.seconds(), eventsWaiting);
        if (request != null) {
            leases.lease(tenantId, window.limit(), window.windowSeconds(), request)
                    .whenComplete((grant, failure) -> tell(() -> leased(window, grant, failure)));
        }
    }

    private void leased(LeasedWindow window, SharedWindows.Grant grant, Throwable failure) {
        long now = clock.seconds();
        if (failure != null) {
            window.failed(now);
        } else {
            window.granted(grant.second(), grant.granted(), grant.retryAfterSeconds(), now);
        }
        while (!waiting.isEmpty()) {
            Waiting first = waiting.peek();
            boolean decided;
            try {
                decided = tryAdmit(first.tenant(), first.event(), first.reply());
            } catch (RuntimeException e) {
                waiting.poll(); // answered 503 by tryAdmit: never admitted again
                throw e;
            }
            if (!decided) {
                askForLease(first.tenant(), true);
                return;
            }
            waiting.poll();
        }
    }

    private boolean decide(Tenant tenant, IncomingEvent event, CompletableFuture<IngestResult> reply) {
        String id = event.eventId();
        // The quota is read from memory (QueuedBytes): no query per event. Approximate, see QueuedBytes.
        boolean queueFull = queued != null && queued.full(tenantId, tenant.maxQueuedBytes());
        var admission = pipeline.admit(id, reply, clock.seconds(), tenant.rateLimit(), tenant.rateWindowSeconds(),
                leases == null ? 1 : leases.replicas(), queueFull, tenant.storesOverLimit());
        if (admission instanceof TenantPipeline.AwaitLease) {
            return false;
        }
        if (admission instanceof TenantPipeline.Duplicate) {
            reply.complete(IngestResult.of(Kind.DEDUPLICATED, id));
        } else if (admission instanceof TenantPipeline.QueueFull) {
            // As long as a write that failed: the backlog drains at the origin's pace, not in a second.
            reply.complete(new IngestResult(Kind.QUEUE_FULL, id, IngestResult.UNAVAILABLE_RETRY_AFTER_SECONDS));
        } else if (admission instanceof TenantPipeline.RateLimited limited) {
            reply.complete(new IngestResult(Kind.RATE_LIMITED, id, limited.retryAfterSeconds()));
        } else if (admission instanceof TenantPipeline.Write write) {
            Kind stored = write.overLimit() ? Kind.PACED : Kind.BUFFERED;
            writer.write(event, outcome -> tell(() -> written(id, outcome, write.slot(), reply, event.body().length,
                    stored)));
        }
        // Joined: the reply waits in the pipeline for the first copy's outcome.
        return true;
    }

    private void written(String id, StoreOutcome outcome, Slot slot, CompletableFuture<IngestResult> reply,
            int bytes, Kind stored) {
        if (outcome == StoreOutcome.STORED && queued != null) {
            queued.stored(tenantId, bytes); // before the answer: the sender's next event sees it
        }
        List<CompletableFuture<IngestResult>> waiters = pipeline.complete(id, outcome, slot, clock.seconds());
        // A copy that waited for a refused first copy was never tried itself (its body may differ): 503, so that
        // its sender's retry is written on its own.
        IngestResult forWaiters = outcome == StoreOutcome.FAILED || outcome == StoreOutcome.NOT_STORABLE
                ? new IngestResult(Kind.UNAVAILABLE, id, IngestResult.UNAVAILABLE_RETRY_AFTER_SECONDS)
                : IngestResult.of(Kind.DEDUPLICATED, id);
        IngestResult forFirst = switch (outcome) {
            case STORED -> IngestResult.of(stored, id);
            case DUPLICATE -> IngestResult.of(Kind.DEDUPLICATED, id);
            case NOT_STORABLE -> IngestResult.of(Kind.NOT_STORABLE, id);
            case FAILED -> forWaiters;
        };
        reply.complete(forFirst);
        waiters.forEach(waiter -> waiter.complete(forWaiters));
        if (outcome == StoreOutcome.STORED) {
            drains.wake(tenantId); // the actor schedules its tenant's drain; no scan of every tenant
        }
    }

    private void tell(Runnable message) {
        mailbox.add(message);
        if (scheduled.compareAndSet(false, true)) {
            runTurn();
        }
    }

    private void runTurn() {
        int handled = 0;
        while (true) {
            Runnable message;
            while ((message = mailbox.poll()) != null) {
                try {
                    message.run();
                } catch (RuntimeException e) {
                    // One bad message must not kill the tenant; its reply is failed and becomes a 503.
                    LOG.errorf(e, "tenant %s: actor message failed", tenantId);
                }
                if (++handled >= TURN_LENGTH && !mailbox.isEmpty()) {
                    executor.execute(this::runTurn); // still scheduled: the next turn continues on the executor
                    return;
                }
            }
            scheduled.set(false);
            // A message added after the poll above but before the flag cleared must not be stranded.
            if (mailbox.isEmpty() || !scheduled.compareAndSet(false, true)) {
                return;
            }
        }
    }
}
