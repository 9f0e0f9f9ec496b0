package io.webhookbuffer.health;

import java.util.ArrayList;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Liveness;

import io.netty.util.concurrent.EventExecutor;
import io.smallrye.health.api.AsyncHealthCheck;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;

/**
 * Live while every Vert.x event loop runs a task within {@code buffer.health.timeout}. A loop stuck in blocking code
 * answers no request; restarting the pod is the only cure. Dependencies are not checked here: a database outage must
 * not restart pods (readiness handles it).
 */
@Liveness
@ApplicationScoped
public class EventLoopLiveness implements AsyncHealthCheck {

    private final Vertx vertx;
    private final HealthConfig config;

    public EventLoopLiveness(Vertx vertx, HealthConfig config) {
        this.vertx = vertx;
        this.config = config;
    }

    @Override
    public Uni<HealthCheckResponse> call() {
        List<Uni<Void>> loops = new ArrayList<>();
        for (EventExecutor loop : vertx.nettyEventLoopGroup()) {
            loops.add(Uni.createFrom().emitter(emitter -> loop.execute(() -> emitter.complete(null))));
        }
        int count = loops.size();
        return Uni.join().all(loops).andFailFast()
                .ifNoItem().after(config.timeout()).fail()
                .map(done -> HealthCheckResponse.named("event-loops").up().withData("loops", count).build())
                .onFailure().recoverWithItem(f -> HealthCheckResponse.named("event-loops").down()
                        .withData("loops", count).withData("error", "an event loop did not answer within "
                                + config.timeout()).build());
    }
}
