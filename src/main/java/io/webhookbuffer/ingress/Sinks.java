package io.webhookbuffer.ingress;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import jakarta.enterprise.context.ApplicationScoped;

import io.webhookbuffer.actor.TenantActors;
import io.webhookbuffer.tenant.Tenant;
import io.webhookbuffer.tenant.TenantDirectory;
import io.webhookbuffer.trace.Tracing;
import io.webhookbuffer.usage.UsageCounters;

/**
 * The ingest path's one seam between a tenant and where its effects go ({@link TenantSinks}): the gate finds the
 * tenant here ({@link #find}) and resolves its sinks once ({@link #of}); every stage writes to them. Every tenant's
 * sinks are this replica's: the group commit, the usage counters, the metrics, the refusal log, the tracer. The one
 * exception is a tenant held here with sinks of its own ({@link #hold}: one that exists only in this process, whose
 * sinks keep nothing): found by its id while held, and its sinks resolved by the tenant itself (the instance held), so
 * a request still on its way when it is released writes to them too, never to this replica's.
 */
@ApplicationScoped
public class Sinks {

    private record Held(Tenant tenant, TenantSinks sinks, boolean findable) {
    }

    private final TenantDirectory directory;
    private final TenantSinks replica;
    /** The tenant held with sinks of its own, or null (almost always). */
    private volatile Held held;

    public Sinks(TenantDirectory directory, TenantActors actors, UsageCounters usage, IngressListener listener,
            RefusalLog refusals, Tracing tracing) {
        this.directory = directory;
        this.replica = new TenantSinks(actors.storage(), usage, listener, refusals::record, tracing::ingest);
    }

    /** The tenant for {@code tenantId} (the held one while it is held, else the directory's); null when unknown. */
    public CompletionStage<Tenant> find(String tenantId) {
        Held h = held;
        if (h != null && h.findable() && h.tenant().id().equals(tenantId)) {
            return CompletableFuture.completedFuture(h.tenant());
        }
        return directory.find(tenantId);
    }

    /** Where {@code tenant}'s effects go; this replica's sinks for none (null: a request that named no known tenant). */
    public TenantSinks of(Tenant tenant) {
        Held h = held;
        return h != null && h.tenant() == tenant && tenant != null ? h.sinks() : replica;
    }

    /** This replica's sinks. */
    public TenantSinks replica() {
        return replica;
    }

    /**
     * Holds {@code tenant}, which exists only in this process, with {@code sinks}: found by its id until
     * {@link #release}d, its effects written to {@code sinks} for as long as this process lives. One at a time.
     */
    public void hold(Tenant tenant, TenantSinks sinks) {
        held = new Held(tenant, sinks, true);
    }

    /** The held tenant's id is unknown from now on (404); requests already holding the tenant keep its sinks. */
    public void release(Tenant tenant) {
        Held h = held;
        if (h != null && h.tenant() == tenant) {
            held = new Held(tenant, h.sinks(), false);
        }
    }
}
