package io.webhookbuffer.ops;

import java.time.Duration;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import io.quarkus.runtime.StartupEvent;
import io.quarkus.runtime.configuration.ConfigUtils;
import io.quarkus.runtime.configuration.MemorySize;
import io.webhookbuffer.actor.ActorConfig;
import io.webhookbuffer.common.ConfigCheck;
import io.webhookbuffer.common.OriginConfig;
import io.webhookbuffer.controlplane.ControlConfig;
import io.webhookbuffer.controlplane.LifecycleConfig;
import io.webhookbuffer.delivery.DeliveryConfig;
import io.webhookbuffer.health.HealthConfig;
import io.webhookbuffer.ingress.IngressConfig;
import io.webhookbuffer.queue.DedupeConfig;
import io.webhookbuffer.queue.QueueConfig;
import io.webhookbuffer.status.StatusConfig;
import io.webhookbuffer.tenant.TenantConfig;
import io.webhookbuffer.usage.UsageConfig;

/**
 * Refuses to start with a retired setting set ({@link RetiredSettings}), with settings outside their bounds, naming
 * each key, its bound and its value; and, outside local mode, with placeholder, demo or short secrets
 * ({@link SecretChecks}: the key, never the value).
 */
@ApplicationScoped
public class StartupChecks {

    void check(@Observes StartupEvent event, IngressConfig ingress, QueueConfig queue, ActorConfig actor,
            TenantConfig tenants, DedupeConfig dedupe, ControlConfig control, DeliveryConfig delivery,
            UsageConfig usage, LifecycleConfig lifecycle, HealthConfig health, StatusConfig status,
            @ConfigProperty(name = "quarkus.http.limits.max-body-size") MemorySize bodyCeiling,
            @ConfigProperty(name = "quarkus.http.http2") boolean http2, OriginConfig origin,
            @ConfigProperty(name = "quarkus.datasource.username") Optional<String> datasourceUsername,
            @ConfigProperty(name = "quarkus.datasource.password") Optional<String> datasourcePassword,
            @ConfigProperty(name = "buffer.secrets.keys") Optional<String> secretsKeys) {
        Config config = ConfigProvider.getConfig();
        RetiredSettings.problems(key -> config.getOptionalValue(key, String.class).isPresent()).throwIfAny();
        problems(ingress, queue, actor, tenants, dedupe, bodyCeiling.asLongValue()).throwIfAny();
        http2Problems(http2).throwIfAny();
        problems(delivery).throwIfAny();
        problems(control, usage, lifecycle).throwIfAny();
        problems(health).throwIfAny();
        SecretChecks.problems(ConfigUtils.getProfiles(), SecretChecks.secrets(control, origin, delivery, status,
                datasourceUsername, datasourcePassword, secretsKeys), problems(status)).throwIfAny();
    }

    /**
     * HTTP/1.1 only: the control plane's body bound (controlplane.ControlBodyGate) reads each {@code /control} body
     * before RESTEasy, which cannot take an HTTP/2 request whose stream has ended; and the edge's bounds are per
     * HTTP/1.1 connection (docs/configuration.md, {@code quarkus.http.http2}).
     */
    public static ConfigCheck http2Problems(boolean http2) {
        return new ConfigCheck().require(!http2, "quarkus.http.http2 must be false: the control plane's body bound reads"
                + " each body before RESTEasy, which cannot take an HTTP/2 request whose stream has ended, was true");
    }

    /** The seam's jobs: intervals of at least a minute (each run scans tables), and the control URL. */
    public static ConfigCheck problems(ControlConfig control, UsageConfig usage, LifecycleConfig lifecycle) {
        Duration minute = Duration.ofMinutes(1);
        ConfigCheck check = new ConfigCheck()
                .range("buffer.control.push-signature-version", control.pushSignatureVersion(), 1, 2)
                .atLeast("buffer.usage.interval", usage.interval(), minute, "1m: each run sums every active tenant")
                .atLeast("buffer.lifecycle.interval", lifecycle.interval(), minute,
                        "1m: each run scans the queue of every tenant")
                .positive("buffer.lifecycle.origin-failing-after", lifecycle.originFailingAfter())
                .range("buffer.lifecycle.backlog-threshold", lifecycle.backlogThreshold(), 1, Long.MAX_VALUE);
        control.url().ifPresent(u -> check.require(u.matches("^https?://[^/?#]+(/[^?#]*)?$"),
                "buffer.control.url must be an absolute http(s) URL without query or fragment, was " + u));
        return check;
    }

    public static ConfigCheck problems(StatusConfig status) {
        ConfigCheck check = new ConfigCheck();
        // A guessable token would open the page to anyone who can reach it.
        status.token().filter(t -> !t.isBlank())
                .ifPresent(t -> check.range("buffer.status.token (length)", t.length(),
                        SecretChecks.MIN_STATUS_TOKEN_CHARS, 4096));
        return check;
    }

    public static ConfigCheck problems(HealthConfig health) {
        return new ConfigCheck()
                .positive("buffer.health.timeout", health.timeout())
                .positive("buffer.health.redis-interval", health.redisInterval());
    }

    public static ConfigCheck problems(DeliveryConfig delivery) {
        return new ConfigCheck()
                .range("buffer.delivery.batch-size", delivery.batchSize(), 1, 1000)
                .range("buffer.delivery.max-batch-bytes", delivery.maxBatchBytes(), 1, Integer.MAX_VALUE)
                .range("buffer.delivery.max-concurrent", delivery.maxConcurrent(), 1, 1024)
                .positive("buffer.delivery.request-timeout", delivery.requestTimeout())
                .atLeast("buffer.delivery.linger", delivery.linger(), Duration.ZERO, "0 sends at once")
                .positive("buffer.delivery.backoff-base", delivery.backoffBase())
                .atLeast("buffer.delivery.backoff-cap", delivery.backoffCap(), delivery.backoffBase(),
                        "buffer.delivery.backoff-base")
                .range("buffer.delivery.max-attempts", delivery.maxAttempts(), 1, 10_000)
                .positive("buffer.delivery.max-age", delivery.maxAge())
                .atLeast("buffer.delivery.lease-ttl", delivery.leaseTtl(),
                        delivery.requestTimeout().plusSeconds(1),
                        "buffer.delivery.request-timeout + 1s: a lease must outlive the batch it covers")
                .positive("buffer.delivery.sweep-interval", delivery.sweepInterval())
                .range("buffer.delivery.circuit-breaker.request-volume", delivery.circuitBreaker().requestVolume(), 1,
                        Integer.MAX_VALUE)
                .positive("buffer.delivery.circuit-breaker.delay", delivery.circuitBreaker().delay());
    }

    public static ConfigCheck problems(IngressConfig ingress, QueueConfig queue, ActorConfig actor,
            TenantConfig tenants, DedupeConfig dedupe, long bodyCeiling) {
        return new ConfigCheck()
                .range("buffer.ingress.max-body-bytes", ingress.maxBodyBytes(), 1,
                        Math.min(Integer.MAX_VALUE, bodyCeiling))
                .require(ingress.maxInFlightBytes() >= 2 * bodyCeiling, "buffer.ingress.max-in-flight-bytes must be at"
                        + " least twice quarkus.http.limits.max-body-size (" + 2 * bodyCeiling + ": a tenant alone may"
                        + " hold half of it, and a body of the largest size must fit, or its 503s would be retried for"
                        + " ever), was " + ingress.maxInFlightBytes())
                .positive("buffer.ingress.body-timeout", ingress.bodyTimeout())
                .range("buffer.queue.max-concurrent-commits", queue.maxConcurrentCommits(), 1, 64)
                .positive("buffer.queue.write-timeout", queue.writeTimeout())
                .positive("buffer.queue.snapshot-interval", queue.snapshotInterval())
                .range("buffer.queue.snapshot-tenants", queue.snapshotTenants(), 1, 100_000)
                .positive("buffer.queue.dead-letter-retention", queue.deadLetterRetention())
                .range("buffer.actor.mailbox-capacity", actor.mailboxCapacity(), 1, 1_000_000)
                .range("buffer.tenants.default-rate-limit", tenants.defaultRateLimit(), 1, 1_000_000)
                .range("buffer.tenants.default-rate-window-seconds", tenants.defaultRateWindowSeconds(), 1, 3600)
                .positive("buffer.tenants.cache-refresh", tenants.cacheRefresh())
                .positive("buffer.dedupe.retention", dedupe.retention());
    }
}
