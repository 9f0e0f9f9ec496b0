package io.webhookbuffer.health;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

import io.smallrye.health.api.AsyncHealthCheck;
import io.smallrye.mutiny.Uni;
import io.webhookbuffer.queue.GroupCommitWriter;

/**
 * Ready while the group commit reaches PostgreSQL, within {@code buffer.health.timeout}: a replica that cannot commit
 * would only answer 503, so it must not get traffic; and one that can must not be taken out. The probe asks the
 * commit path itself ({@link GroupCommitWriter#probe}): a commit that succeeded within the timeout is enough, else
 * {@code SELECT 1} runs on the connection the next commit would use (a kept one, then the pool), and a dead kept
 * connection is replaced on the way. The pool alone said ready while the kept connection was dead (the next event
 * got 503), and not ready while the pool was busy with other queries though commits went through. Redis' state is in
 * the response data ({@code redis}: up/down/unknown) and never changes the verdict.
 */
@Readiness
@ApplicationScoped
public class DatabaseReadiness implements AsyncHealthCheck {

    static final String NAME = "postgresql";

    private final GroupCommitWriter writer;
    private final HealthConfig config;
    private final RedisProbe redis;
    /** The last verdict, for the buffer_ready gauge: 1 up, 0 down, -1 before the first probe. */
    private volatile int lastUp = -1;

    public DatabaseReadiness(GroupCommitWriter writer, HealthConfig config, RedisProbe redis) {
        this.writer = writer;
        this.config = config;
        this.redis = redis;
    }

    @Override
    public Uni<HealthCheckResponse> call() {
        return Uni.createFrom().completionStage(() -> writer.probe(config.timeout()).toCompletionStage())
                .ifNoItem().after(config.timeout()).fail()
                .map(reached -> {
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
