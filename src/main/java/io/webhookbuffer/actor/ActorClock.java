package io.webhookbuffer.actor;

/** Monotonic whole seconds for rate windows (never wall time: a clock step must not open or close a window). */
@FunctionalInterface
interface ActorClock {

    long seconds();

    ActorClock SYSTEM = () -> System.nanoTime() / 1_000_000_000L;
}
