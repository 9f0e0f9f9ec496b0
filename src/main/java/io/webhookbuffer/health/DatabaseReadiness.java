package io.webhookbuffer.health;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

import io.smallrye.health.api.AsyncHealthCheck;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;

/**
 * Ready while PostgreSQL answers {@code SELECT 1} through the pool that stores events, within
 * {@code buffer.health.timeout}: a replica that cannot commit would only answer 503, so it must not get traffic.
 * Redis' state is in the response data ({@code redis}: up/down/unknown) and never changes the verdict.
 */
@Readiness
@ApplicationScoped
public class DatabaseReadiness implements AsyncHealthCheck {

    static final String NAME = "postgresql";

    private final Pool pool;
    private final HealthConfig config;
    private final RedisProbe redis;
    /** The last verdict, for the buffer_ready gauge: 1 up, 0 down, -1 before the first probe. */
    private volatile int lastUp = -1;

    public DatabaseReadiness(Pool pool, HealthConfig config, RedisProbe redis) {
        this.pool = pool;
        this.config = config;
        this.redis = redis;
    }

    @Override
    public Uni<HealthCheckResponse> call() {
        return pool.query("SELECT 1").execute()
                .ifNoItem().after(config.timeout()).fail()
                .map(rows -> {
                    lastUp = 1;
                    return HealthCheckResponse.named(NAME).up().withData("redis", redis.state()).build();
                })
                .onFailure().recoverWithItem(failure -> {
                    lastUp = 0;
                    return HealthCheckResponse.named(NAME).down().withData("redis", redis.state())
                            .withData("error", String.valueOf(failure.getClass().getSimpleName())).build();
                });
    }

    /** 1 when the last readiness probe reached PostgreSQL, 0 when it did not, -1 before the first probe. */
    public int lastUp() {
        return lastUp;
    }
}
