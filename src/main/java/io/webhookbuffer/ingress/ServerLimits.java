package io.webhookbuffer.ingress;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import io.quarkus.runtime.configuration.MemorySize;
import io.vertx.core.http.HttpServerOptions;

/**
 * Quarkus's limits for its own HTTP server ({@code quarkus.http.idle-timeout}, {@code quarkus.http.limits.*}, HTTP/1.1
 * only as {@code quarkus.http.http2=false} says, for the reasons docs/configuration.md gives), for the servers of our
 * own that hand requests to Quarkus's root handler: the webhook port ({@link EdgePort}) and the management port
 * ({@code ops.ManagementPort}), so that every port applies the same ones.
 */
@ApplicationScoped
public class ServerLimits {

    private final Duration idleTimeout;
    private final int maxHeaderSize;
    private final int maxInitialLineLength;

    public ServerLimits(@ConfigProperty(name = "quarkus.http.idle-timeout") Duration idleTimeout,
            @ConfigProperty(name = "quarkus.http.limits.max-header-size") MemorySize maxHeaderSize,
            @ConfigProperty(name = "quarkus.http.limits.max-initial-line-length") int maxInitialLineLength) {
        this.idleTimeout = idleTimeout;
        this.maxHeaderSize = (int) maxHeaderSize.asLongValue();
        this.maxInitialLineLength = maxInitialLineLength;
    }

    /** Options for a server on {@code host} with these limits. */
    public HttpServerOptions options(String host) {
        return new HttpServerOptions().setHost(host)
                .setIdleTimeout((int) idleTimeout.toSeconds()).setIdleTimeoutUnit(TimeUnit.SECONDS)
                .setMaxHeaderSize(maxHeaderSize).setMaxInitialLineLength(maxInitialLineLength)
                .setHttp2ClearTextEnabled(false).setTcpNoDelay(true);
    }
}
