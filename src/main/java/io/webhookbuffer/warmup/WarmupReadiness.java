package io.webhookbuffer.warmup;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/** DOWN while the start-up warm-up ({@link Warmup}) runs, so no traffic reaches a replica whose hot path is cold. */
@Readiness
@ApplicationScoped
public class WarmupReadiness implements HealthCheck {

    private final Warmup warmup;

    public WarmupReadiness(Warmup warmup) {
        this.warmup = warmup;
    }

    @Override
    public HealthCheckResponse call() {
        return HealthCheckResponse.named("warm-up").status(warmup.done())
                .withData("requests", warmup.sent()).build();
    }
}
