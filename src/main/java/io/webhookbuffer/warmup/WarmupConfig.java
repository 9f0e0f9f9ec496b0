package io.webhookbuffer.warmup;

import java.time.Duration;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** The start-up warm-up ({@code buffer.warmup.*}): see {@link Warmup}. */
@ConfigMapping(prefix = "buffer.warmup")
public interface WarmupConfig {

    /** Rehearse the ingest path before readiness reports UP. */
    @WithDefault("true")
    boolean enabled();

    /** Requests the rehearsal sends at most. */
    @WithDefault("40000")
    int requests();

    /** The rehearsal ends after this long even if it has not sent {@link #requests()}; readiness then follows. */
    @WithDefault("20s")
    Duration maxDuration();

    /**
     * After the rehearsal, readiness waits at most this long for the JIT compiler to go quiet (less than 10% of a
     * compiler thread for half a second).
     */
    @WithDefault("10s")
    Duration settleMax();

    /**
     * Refused requests rehearsed beside the signed ones ({@link RefusalRehearsal}: unknown tenants, bad signatures,
     * bodies over the limit, broken HTTP), each on a connection of its own; 0: none.
     */
    @WithDefault("20000")
    int refusals();

    /** Connections the rehearsal keeps busy at once (like a provider's concurrent deliveries). */
    @WithDefault("32")
    int connections();
}
