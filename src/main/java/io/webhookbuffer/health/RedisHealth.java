package io.webhookbuffer.health;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.health.HealthCheckResponse;

import io.smallrye.health.api.AsyncHealthCheck;
import io.smallrye.health.api.HealthGroup;
import io.smallrye.mutiny.Uni;

/**
 * Redis in the {@code dependencies} group ({@code /q/health/group/dependencies}): DOWN when a fresh ping fails. Not a
 * readiness check on purpose (see {@link RedisProbe}); the Redis extension's own readiness check is disabled
 * ({@code quarkus.redis.health.enabled=false}) for the same reason.
 */
@HealthGroup("dependencies")
@ApplicationScoped
public class RedisHealth implements AsyncHealthCheck {

    private final RedisProbe probe;

    public RedisHealth(RedisProbe probe) {
        this.probe = probe;
    }

    @Override
    public Uni<HealthCheckResponse> call() {
        return probe.ping().map(up -> HealthCheckResponse.named("redis").status(up)
                .withData("fallback", up ? "none" : "tenant changes via cache TTL; signed commands refused").build());
    }
}
