package io.webhookbuffer.ops;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.RestResponse;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

import io.quarkus.runtime.ShutdownDelayInitiatedEvent;
import io.quarkus.runtime.ShutdownEvent;
import io.webhookbuffer.actor.ActorConfig;
import io.webhookbuffer.ingress.IngressReply;

/**
 * Graceful shutdown, the part Quarkus leaves to us (README "Graceful shutdown"). On SIGTERM Quarkus turns readiness
 * DOWN at once ({@code quarkus.shutdown.delay-enabled}) and goes on serving for {@code quarkus.shutdown.delay}, so a
 * load balancer takes the replica out while every request still gets its real answer; then it waits up to
 * {@code quarkus.shutdown.timeout} for the requests in flight, but Quarkus 3.33 serves new requests meanwhile too
 * (only adding {@code Connection: close}), so without this gate a sender still reaching the replica keeps getting
 * 202s until the process is gone. From the end of the delay every new application request (ingest, control, status
 * page; not {@code /q/*}: health and metrics answer to the end) is refused: 503 with {@code Retry-After}
 * ({@code buffer.actor.unavailable-retry-after-seconds}) and {@code {"status":"unavailable","reason":"shutting_down"}},
 * nothing read, nothing stored, so the sender retries, on another replica.
 *
 * <p>Failure policy: fail closed after the delay. A request the gate refuses was never started; one it let in before
 * is in flight and gets its true answer (its group commit finishes before the pool closes).
 */
@ApplicationScoped
public class ShutdownGate {

    private static final Logger LOG = Logger.getLogger(ShutdownGate.class);
    static final String REASON = "shutting_down";

    private final long delayNanos;
    private final String retryAfter;
    private final AtomicLong refused = new AtomicLong();
    private volatile boolean shuttingDown;
    private volatile long refuseFromNanos;

    public ShutdownGate(@ConfigProperty(name = "quarkus.shutdown.delay") Optional<Duration> delay, ActorConfig actor) {
        this.delayNanos = delay.filter(d -> !d.isNegative()).orElse(Duration.ZERO).toNanos();
        this.retryAfter = Integer.toString(actor.unavailableRetryAfterSeconds());
    }

    /** SIGTERM: Quarkus fires this as readiness turns DOWN, before it waits for the delay. */
    void delayStarted(@Observes ShutdownDelayInitiatedEvent event) {
        refuseFromNanos = System.nanoTime() + delayNanos;
        shuttingDown = true;
        LOG.infof("shutdown: readiness DOWN; serving %d ms more, then refusing new requests with 503",
                delayNanos / 1_000_000);
    }

    void stopped(@Observes ShutdownEvent event) {
        if (shuttingDown) {
            LOG.infof("shutdown: refused %d new request(s) with 503", refused.get());
        }
    }

    /** Before anything else reads the request: after the delay, the refusal; until then, nothing (null). */
    @ServerRequestFilter(preMatching = true, priority = Priorities.AUTHENTICATION - 100)
    public RestResponse<IngressReply> refuseAfterTheDelay() {
        if (!shuttingDown || System.nanoTime() - refuseFromNanos < 0) {
            return null;
        }
        refused.incrementAndGet();
        return RestResponse.ResponseBuilder
                .create(RestResponse.Status.SERVICE_UNAVAILABLE, new IngressReply("unavailable", null, REASON))
                .type(MediaType.APPLICATION_JSON_TYPE).header("Retry-After", retryAfter).build();
    }
}
