package io.webhookbuffer.health;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;

/**
 * Pings Redis every {@code buffer.health.redis-interval} and keeps the answer. Failure policy: Redis is an
 * accelerator (tenant-change pub/sub falls back to the cache TTL) and the command nonce store (signed commands are
 * refused while it is down), so its state is reported (health data, the {@code dependencies} group,
 * buffer_redis_fallback) and never fails readiness: ingest does not need it.
 */
@ApplicationScoped
public class RedisProbe {

    private static final Logger LOG = Logger.getLogger(RedisProbe.class);

    private final ReactiveRedisDataSource redis;
    private final HealthConfig config;
    /** null before the first ping. */
    private volatile Boolean up;

    public RedisProbe(ReactiveRedisDataSource redis, HealthConfig config) {
        this.redis = redis;
        this.config = config;
    }

    @Scheduled(every = "${buffer.health.redis-interval:5s}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    Uni<Void> scheduledPing() {
        return ping().replaceWithVoid();
    }

    /** Pings now and records the answer. */
    public Uni<Boolean> ping() {
        return redis.execute("PING").ifNoItem().after(config.timeout()).fail()
                .map(response -> true)
                .onFailure().recoverWithItem(failure -> {
                    if (!Boolean.FALSE.equals(up)) {
                        LOG.warnf("Redis unreachable (%s): tenant changes reach other replicas through the cache TTL,"
                                + " signed commands are refused until it is back", failure.getMessage());
                    }
                    return false;
                })
                .invoke(ok -> {
                    if (ok && Boolean.FALSE.equals(up)) {
                        LOG.info("Redis reachable again");
                    }
                    up = ok;
                });
    }

    /** "up", "down", or "unknown" before the first ping. */
    public String state() {
        Boolean u = up;
        return u == null ? "unknown" : u ? "up" : "down";
    }

    /** True while the last ping failed: the buffer runs on its Redis fallbacks. */
    public boolean fallback() {
        return Boolean.FALSE.equals(up);
    }
}
