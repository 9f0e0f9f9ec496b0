package io.webhookbuffer.actor;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Scheduler;

import io.webhookbuffer.actor.IngestResult.Kind;
import io.webhookbuffer.common.BufferClock;
import io.webhookbuffer.queue.DrainScheduler;
import io.webhookbuffer.queue.GroupCommitWriter;
import io.webhookbuffer.queue.IncomingEvent;
import io.webhookbuffer.queue.QueuedBytes;
import io.webhookbuffer.ratelimit.shared.SharedWindows;
import io.webhookbuffer.tenant.Tenant;

/** The actor registry: routes an event to its tenant's actor, creating it on demand and dropping it when idle. */
@ApplicationScoped
public class TenantActors {

    /** An actor unused this long is dropped (its in-memory dedupe and rate window go with it). */
    static final Duration IDLE_EVICTION = Duration.ofMinutes(10);

    private final ActorConfig config;
    private final BufferClock clock;
    /** This replica's storage: the group commit, the drains, the queued bytes. */
    private final Storage storage;
    /** null when windows are this replica's own ({@code buffer.ratelimit.shared=false}). */
    private final SharedWindows leases;
    private final ExecutorService executor;
    private final Cache<String, TenantActor> actors;

    public TenantActors(ActorConfig config, GroupCommitWriter writer, DrainScheduler drains, SharedWindows leases,
            QueuedBytes queued, BufferClock clock) {
        this.config = config;
        this.clock = clock;
        this.storage = new Storage(writer, drains, queued);
        this.leases = leases.config().shared() ? leases : null;
        // One thread per core (as the JVM sees the container's CPU limit): actors' turns never block, so more
        // threads would only contend with the event loops.
        int threads = Runtime.getRuntime().availableProcessors();
        AtomicInteger n = new AtomicInteger();
        this.executor = Executors.newFixedThreadPool(threads, runnable -> {
            Thread t = new Thread(runnable, "tenant-actor-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        // An evicted actor still finishes what it holds (its replies are referenced by the pending writes); a new
        // event for the tenant gets a fresh actor, and the database's unique key still catches duplicates.
        // The scheduler makes eviction happen when an actor's idle time is up, not at the next access: a replica that
        // saw 100,000 tenants once gives their memory back while it sits idle.
        this.actors = Caffeine.newBuilder().expireAfterAccess(IDLE_EVICTION)
                .scheduler(Scheduler.systemScheduler()).build();
    }

    /** This replica's storage: the group commit, the drain scheduler and the queued bytes (every tenant's). */
    public Storage storage() {
        return storage;
    }

    /**
     * Hands the event to its tenant's actor, which stores in {@code storage} (the tenant's sinks'; an actor keeps the
     * storage it was made with); the stage completes with the decision, after the commit if any.
     */
    public CompletionStage<IngestResult> ingest(Tenant tenant, IncomingEvent event, Storage storage) {
        try {
            return actors.get(tenant.id(), id -> newActor(id, storage)).ingest(tenant, event);
        } catch (RuntimeException e) {
            return CompletableFuture.completedFuture(
                    new IngestResult(Kind.UNAVAILABLE, event.eventId(), IngestResult.UNAVAILABLE_RETRY_AFTER_SECONDS));
        }
    }

    private TenantActor newActor(String id, Storage storage) {
        // Every actor leases from the shared window (its tenant's key) when windows are shared.
        return new TenantActor(id, config, storage.writer(), storage.drains(), executor, clock, leases, storage.queued());
    }

    /** Forgets a tenant's actor now rather than at idle eviction (a tenant that will send nothing more). */
    public void forget(String tenantId) {
        actors.invalidate(tenantId);
    }

    /** Actors alive now (for operators and tests of eviction). */
    public long size() {
        return actors.estimatedSize();
    }

    /** Events between arrival and answer, summed over the actors alive now (for operators). */
    public long mailboxDepth() {
        long depth = 0;
        for (TenantActor actor : actors.asMap().values()) {
            depth += actor.outstanding();
        }
        return depth;
    }

    /** Events between arrival and answer at one tenant's actor; 0 when it has none (for operators and tests). */
    public int mailboxDepth(String tenantId) {
        TenantActor actor = actors.getIfPresent(tenantId);
        return actor == null ? 0 : actor.outstanding();
    }

    @PreDestroy
    void shutdown() {
        executor.shutdown();
    }
}
