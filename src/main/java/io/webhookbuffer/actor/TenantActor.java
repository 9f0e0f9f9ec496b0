package io.webhookbuffer.actor;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.jboss.logging.Logger;

import io.webhookbuffer.actor.IngestResult.Kind;
import io.webhookbuffer.queue.DrainScheduler;
import io.webhookbuffer.queue.EventWriter;
import io.webhookbuffer.queue.IncomingEvent;
import io.webhookbuffer.queue.StoreOutcome;
import io.webhookbuffer.tenant.Tenant;

/**
 * One tenant's single-threaded executor: an ordered mailbox that runs on whichever thread finds it idle (an event
 * loop or the database client's I/O thread; every message is short and never blocks), for at most
 * {@code turnLength} messages before it hands the rest to a shared executor so one busy tenant cannot hold a thread.
 * Its {@link TenantPipeline} is touched only inside a turn.
 */
final class TenantActor {

    private static final Logger LOG = Logger.getLogger(TenantActor.class);

    private final String tenantId;
    private final ActorConfig config;
    private final EventWriter writer;
    private final DrainScheduler drains;
    private final Executor executor;
    private final ActorClock clock;
    private final ConcurrentLinkedQueue<Runnable> mailbox = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean scheduled = new AtomicBoolean();
    /** Events between arrival and answer: the mailbox bound. */
    private final AtomicInteger outstanding = new AtomicInteger();
    // @protectedby: the actor's turn (only touched by messages)
    private final TenantPipeline<CompletableFuture<IngestResult>> pipeline;

    TenantActor(String tenantId, ActorConfig config, EventWriter writer, DrainScheduler drains,
            Executor executor, ActorClock clock) {
        this.tenantId = tenantId;
        this.config = config;
        this.writer = writer;
        this.drains = drains;
        this.executor = executor;
        this.clock = clock;
        this.pipeline = new TenantPipeline<>(config.recentIds());
    }

    CompletableFuture<IngestResult> ingest(Tenant tenant, IncomingEvent event) {
        if (outstanding.incrementAndGet() > config.mailboxCapacity()) {
            outstanding.decrementAndGet();
            return CompletableFuture.completedFuture(
                    new IngestResult(Kind.OVERLOADED, event.eventId(), config.overloadedRetryAfterSeconds()));
        }
        CompletableFuture<IngestResult> reply = new CompletableFuture<>();
        reply.whenComplete((result, failure) -> outstanding.decrementAndGet());
        tell(() -> admit(tenant, event, reply));
        return reply;
    }

    int outstanding() {
        return outstanding.get();
    }

    private void admit(Tenant tenant, IncomingEvent event, CompletableFuture<IngestResult> reply) {
        try {
            decide(tenant, event, reply);
        } catch (RuntimeException e) {
            reply.complete(new IngestResult(Kind.UNAVAILABLE, event.eventId(), config.unavailableRetryAfterSeconds()));
            throw e;
        }
    }

    private void decide(Tenant tenant, IncomingEvent event, CompletableFuture<IngestResult> reply) {
        String id = event.eventId();
        var admission = pipeline.admit(id, reply, clock.seconds(), tenant.rateLimit(), tenant.rateWindowSeconds());
        if (admission instanceof TenantPipeline.Duplicate) {
            reply.complete(IngestResult.of(Kind.DEDUPLICATED, id));
        } else if (admission instanceof TenantPipeline.RateLimited limited) {
            reply.complete(new IngestResult(Kind.RATE_LIMITED, id, limited.retryAfterSeconds()));
        } else if (admission instanceof TenantPipeline.Write write) {
            writer.write(event, outcome -> tell(() -> written(id, outcome, write.slotSecond(), reply)));
        }
        // Joined: the reply waits in the pipeline for the first copy's outcome.
    }

    private void written(String id, StoreOutcome outcome, long slotSecond, CompletableFuture<IngestResult> reply) {
        List<CompletableFuture<IngestResult>> waiters = pipeline.complete(id, outcome, slotSecond, clock.seconds());
        // A copy that waited for a refused first copy was never tried itself (its body may differ): 503, so that
        // its sender's retry is written on its own.
        IngestResult forWaiters = outcome == StoreOutcome.FAILED || outcome == StoreOutcome.NOT_STORABLE
                ? new IngestResult(Kind.UNAVAILABLE, id, config.unavailableRetryAfterSeconds())
                : IngestResult.of(Kind.DEDUPLICATED, id);
        IngestResult forFirst = switch (outcome) {
            case STORED -> IngestResult.of(Kind.BUFFERED, id);
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
                if (++handled >= config.turnLength() && !mailbox.isEmpty()) {
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
