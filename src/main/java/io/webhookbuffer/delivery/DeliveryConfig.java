package io.webhookbuffer.delivery;

import java.time.Duration;
import java.util.Optional;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Delivery to the origin ({@code buffer.delivery.*}). */
@ConfigMapping(prefix = "buffer.delivery")
public interface DeliveryConfig {

    /** Turns the drainers on; off, events are buffered and wait. */
    @WithDefault("true")
    boolean enabled();

    /** Most events in one batch POST. */
    @WithDefault("50")
    int batchSize();

    /** Most raw-body bytes in one batch (a batch always carries at least one event). */
    @WithDefault("1048576")
    int maxBatchBytes();

    /**
     * A batch smaller than {@code batch-size} waits until its oldest event is this old, so a steady trickle reaches
     * the origin in fuller batches instead of one request per event; 0 sends at once.
     */
    @WithDefault("100ms")
    Duration linger();

    /** Time allowed for the origin's answer to one batch; a tenth of it is the slow threshold (see SlowLane). */
    @WithDefault("10s")
    Duration requestTimeout();

    /**
     * Batches in flight to origins at once, across all tenants (the bulkhead); tenants queue for a slot in turn. As
     * many again for tenants whose origin is slow (the slow lane, see SlowLane): origins may see twice this at once.
     */
    @WithDefault("16")
    int maxConcurrent();

    /** First retry delay; each further failure doubles it. */
    @WithDefault("2s")
    Duration backoffBase();

    /** Longest retry delay (a Retry-After from the origin may ask for longer and is honoured). */
    @WithDefault("5m")
    Duration backoffCap();

    /**
     * An event that failed this many times for its own reason moves to dead_letters: sent alone, it failed, and the
     * origin accepted another batch between that try and its previous one (see FailurePolicy). Failures of the origin
     * as a whole (down, slow, overloaded, 503, 429, an open breaker) never count, however long they last.
     */
    @WithDefault("8")
    int maxAttempts();

    /**
     * An event that failed (for any reason) and has been deliverable longer than this moves to dead_letters: counted
     * from its receipt, its replay, or the end of its tenant's last pause or hold, whichever is latest.
     */
    @WithDefault("72h")
    Duration maxAge();

    /** How long a drainer's lease on a tenant lasts without renewal (renewed on every batch). */
    @WithDefault("30s")
    Duration leaseTtl();

    /** How often to look for tenants with pending events that no drainer holds (restarts, crashed replicas). */
    @WithDefault("10s")
    Duration sweepInterval();

    /** Secret for {@code X-Buffer-Signature}; unset, batches are not signed. Never logged. */
    Optional<String> signingSecret();

    CircuitBreaker circuitBreaker();

    /** Per origin: after enough failures the origin is probed, not hammered. */
    interface CircuitBreaker {
        /** Batches looked at before the breaker may open. */
        @WithDefault("10")
        int requestVolume();

        /** How long an open breaker waits before letting a probe through. */
        @WithDefault("30s")
        Duration delay();
    }
}
