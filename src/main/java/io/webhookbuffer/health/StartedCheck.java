package io.webhookbuffer.health;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Startup;

import io.quarkus.runtime.StartupEvent;

/**
 * Started once the application's start-up finished: schema migrated (Flyway runs before), configuration checked, the
 * drain sweep scheduled. Kubernetes holds liveness and readiness probes until this answers UP, so a slow migration
 * does not get the pod restarted.
 */
@Startup
@ApplicationScoped
public class StartedCheck implements HealthCheck {

    private volatile boolean started;

    void started(@Observes StartupEvent event) {
        started = true;
    }

    @Override
    public HealthCheckResponse call() {
        return HealthCheckResponse.named("started").status(started).build();
    }
}
