package io.webhookbuffer.ingress;

import java.util.function.Function;

import io.vertx.core.net.SocketAddress;
import io.webhookbuffer.actor.Storage;
import io.webhookbuffer.tenant.Tenant;
import io.webhookbuffer.trace.IngestTrace;
import io.webhookbuffer.usage.UsageCounters;
import io.webhookbuffer.verify.SenderRetries;

/**
 * Where one tenant's effects go: its events' storage (the actor's writer, drain and quota), its usage counts, the
 * operator's metrics, its kept refusals and its ingest spans. The ingest path writes every effect of a request to the
 * sinks {@link Sinks} resolved for its tenant, and never asks whose they are: this replica's for every tenant, others
 * only for a tenant held with sinks of its own ({@link Sinks#hold}).
 *
 * @param traces starts a request's ingest span: {@code (tenantId, provider, trustSender, headers, receivedAt)}
 */
public record TenantSinks(Storage storage, UsageCounters usage, IngressListener metrics, Refusals refusals,
        Traces traces) {

    private static final IngressListener NO_METRICS = new IngressListener() {
        @Override
        public void answered(IngestOutcome outcome, long elapsedNanos) {
        }

        @Override
        public void refused(EdgeRefusal reason) {
        }

        @Override
        public void senderRefused(String reason, SenderRetries retries) {
        }

        @Override
        public void offloaded() {
        }
    };

    /** Keeps a refusal to the tenant ({@link RefusalLog#record}). */
    @FunctionalInterface
    interface Refusals {
        void record(Tenant tenant, IngestAnswer answer, Iterable<String> headerNames, long bodyBytes,
                SocketAddress peer);
    }

    /** Starts a request's ingest span ({@link io.webhookbuffer.trace.Tracing#ingest}). */
    @FunctionalInterface
    public interface Traces {
        IngestTrace ingest(String tenantId, String provider, boolean trustSender, Function<String, String> headers,
                long receivedAt);
    }

    /**
     * Sinks that keep nothing but the events' {@code storage}: usage counted on a tally nobody flushes, no metric, no
     * refusal kept, no span.
     */
    public static TenantSinks discarding(Storage storage) {
        return new TenantSinks(storage, new UsageCounters(), NO_METRICS, (tenant, answer, names, bytes, peer) -> {
        }, (tenantId, provider, trust, headers, receivedAt) -> IngestTrace.OFF);
    }

}
