package io.webhookbuffer.controlplane;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.smallrye.mutiny.Uni;

/**
 * Claims a command nonce once, cluster-wide: one atomic {@code SET key 1 NX EX ttl} in Redis (never get-then-put,
 * which lets two identical commands both pass).
 */
@ApplicationScoped
public class NonceGuard {

    static final String KEY_PREFIX = "webhook-buffer:nonce:";

    private final ReactiveRedisDataSource redis;
    private final String ttlSeconds;

    public NonceGuard(ReactiveRedisDataSource redis) {
        this.redis = redis;
        // Twice the timestamp tolerance: a timestamp is accepted up to the tolerance either side of now, so a nonce
        // kept for less could be replayed with a timestamp still accepted; longer would only hold Redis keys.
        this.ttlSeconds = Long.toString(CommandAuthenticator.TIMESTAMP_TOLERANCE.multipliedBy(2).toSeconds());
    }

    /** Completes with true when this call claimed the nonce, false when it was already claimed. */
    public Uni<Boolean> claim(String nonce) {
        return redis.execute("SET", KEY_PREFIX + nonce, "1", "NX", "EX", ttlSeconds)
                .map(response -> response != null && "OK".equals(response.toString()));
    }
}
