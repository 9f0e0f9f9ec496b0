package io.webhookbuffer.ingress;

import java.util.concurrent.atomic.AtomicLong;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * The replica's budget for request bodies in flight ({@code buffer.ingress.max-in-flight-bytes}): what every
 * request between its admission and its answer holds, all tenants together, so that many large uploads at once are
 * refused (503) instead of taking the heap. Lock-free; taken and given back on the event loops.
 */
@ApplicationScoped
public class InFlightBytes {

    private final long limit;
    private final AtomicLong held = new AtomicLong();

    @Inject
    InFlightBytes(IngressConfig config) {
        this(config.maxInFlightBytes());
    }

    InFlightBytes(long limit) {
        this.limit = limit;
    }

    /** Takes {@code bytes} when they fit under the limit with what is held already; false (nothing taken) if not. */
    boolean tryTake(long bytes) {
        long now;
        do {
            now = held.get();
            if (bytes > limit - now) {
                return false;
            }
        } while (!held.compareAndSet(now, now + bytes));
        return true;
    }

    void giveBack(long bytes) {
        held.addAndGet(-bytes);
    }

    /** Bytes held now (the {@code buffer_ingress_in_flight_bytes} gauge). */
    public long held() {
        return held.get();
    }
}
