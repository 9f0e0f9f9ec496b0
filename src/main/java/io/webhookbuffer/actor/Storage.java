package io.webhookbuffer.actor;

import io.webhookbuffer.queue.DrainScheduler;
import io.webhookbuffer.queue.EventWriter;
import io.webhookbuffer.queue.QueuedBytes;

/**
 * Where a tenant's actor stores the events it admits: the writer, the drain a stored event wakes, and the quota the
 * stored bytes count against. Every tenant's is this replica's ({@link TenantActors#storage()}: the group commit, the
 * drain scheduler, the queued bytes), unless the tenant's sinks name another (ingress.TenantSinks).
 */
public record Storage(EventWriter writer, DrainScheduler drains, QueuedBytes queued) {
}
