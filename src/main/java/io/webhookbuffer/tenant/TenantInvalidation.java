package io.webhookbuffer.tenant;

import java.time.Duration;
import java.util.concurrent.CompletionStage;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.jboss.logging.Logger;

import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.redis.datasource.pubsub.ReactivePubSubCommands;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.subscription.Cancellable;
import io.smallrye.mutiny.Uni;

/**
 * Tells every replica that a tenant changed, over Redis pub/sub, so a command is visible everywhere within a
 * second. Failure policy: fail open to the cache TTL. Redis is only an accelerator here; when it is down a
 * publish is logged and dropped, and each replica's change poll ({@code buffer.tenants.cache-refresh}) and cache
 * lifetime (TenantDirectory.CACHE_TTL) bound how stale it gets.
 */
@ApplicationScoped
public class TenantInvalidation {

    /**
     * The Redis channel on which replicas announce tenant changes. A constant, like every other Redis name of the
     * buffer ({@code webhook-buffer:nonce:...}): buffers that share a Redis share their tenants' database too, and so
     * must hear each other's changes.
     */
    public static final String CHANNEL = "webhook-buffer:tenant-changed";

    private static final Logger LOG = Logger.getLogger(TenantInvalidation.class);

    private final ReactivePubSubCommands<String> pubsub;
    private final TenantDirectory directory;
    private volatile Cancellable subscription;

    public TenantInvalidation(ReactiveRedisDataSource redis, TenantDirectory directory) {
        this.pubsub = redis.pubsub(String.class);
        this.directory = directory;
    }

    void subscribe(@Observes StartupEvent event) {
        subscription = pubsub.subscribe(CHANNEL)
                .onFailure().invoke(failure -> LOG.warnf("tenant invalidation subscription lost (%s); retrying",
                        failure.getMessage()))
                .onFailure().retry().withBackOff(Duration.ofMillis(500), Duration.ofSeconds(30)).indefinitely()
                .subscribe().with(directory::changed);
    }

    void unsubscribe(@Observes ShutdownEvent event) {
        Cancellable s = subscription;
        if (s != null) {
            s.cancel();
        }
    }

    /**
     * Reloads the tenant here and tells the other replicas at once; completes when this replica serves the new row or
     * has forgotten the tenant (within {@code buffer.tenants.lookup-timeout}), so the command's answer comes after.
     * Completes even when Redis is down.
     */
    public Uni<Void> changed(String tenantId) {
        CompletionStage<Void> here = directory.changed(tenantId);
        return pubsub.publish(CHANNEL, tenantId)
                .onFailure().recoverWithItem(failure -> {
                    LOG.warnf("could not announce change of tenant %s (%s); other replicas see it within the cache TTL",
                            tenantId, failure.getMessage());
                    return null;
                })
                .chain(() -> Uni.createFrom().completionStage(here));
    }
}
