package io.webhookbuffer.ingress;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.webhookbuffer.common.FairShare;

/**
 * The replica's bytes for request bodies in flight ({@code buffer.ingress.max-in-flight-bytes}), a {@link FairShare}:
 * one tenant may hold at most half of what the other tenants leave. A request is charged for the room its arrived
 * bytes are read into, never for the length it declares ({@link IngressGate}), so a head that promises a body and
 * sends none costs nothing; bodies aimed at one tenant, dribbled or stalled, take at most half of the budget. A
 * tenant's own requests beyond its share get {@code 503 replica_busy}. Taken and given back on the event loops.
 */
@ApplicationScoped
public class InFlightBytes {

    private final FairShare share;

    @Inject
    InFlightBytes(IngressConfig config) {
        this(config.maxInFlightBytes());
    }

    InFlightBytes(long limit) {
        this.share = new FairShare(limit);
    }

    /** Takes {@code bytes} for {@code tenantId} when they fit in its share; false (nothing taken) if not. */
    boolean tryTake(String tenantId, long bytes) {
        return share.tryTake(tenantId, bytes);
    }

    void giveBack(String tenantId, long bytes) {
        share.giveBack(tenantId, bytes);
    }

    /** Bytes held now, all tenants (the {@code buffer_ingress_in_flight_bytes} gauge). */
    public long held() {
        return share.held();
    }

    /** Bytes {@code tenantId} holds now. */
    long heldBy(String tenantId) {
        return share.heldBy(tenantId);
    }

    /** Tenants holding bytes now. */
    int tenants() {
        return share.holders();
    }
}
