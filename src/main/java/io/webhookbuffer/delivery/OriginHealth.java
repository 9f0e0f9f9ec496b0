package io.webhookbuffer.delivery;

/**
 * What this replica has seen of one origin: when it last accepted a batch, and when a batch last failed there (an
 * isolation try aside: its failure is the suspect's). {@link FailurePolicy} reads both to tell a poison event from an
 * origin in trouble. Replicas do not share it: one that has seen less only counts fewer failures as an event's own.
 */
final class OriginHealth {

    private volatile long lastSuccess;
    private volatile long lastFailure;

    void succeeded(long nowMillis) {
        lastSuccess = Math.max(lastSuccess, nowMillis);
    }

    void failed(long nowMillis) {
        lastFailure = Math.max(lastFailure, nowMillis);
    }

    long lastSuccess() {
        return lastSuccess;
    }

    long lastFailure() {
        return lastFailure;
    }
}
