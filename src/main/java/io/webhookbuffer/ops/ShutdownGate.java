package io.webhookbuffer.ops;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.quarkus.runtime.ShutdownDelayInitiatedEvent;
import io.quarkus.runtime.ShutdownEvent;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.webhookbuffer.actor.IngestResult;
import io.webhookbuffer.ingress.IngressReply;
import io.webhookbuffer.ingress.QuarkusHttpInternals;

/**
 * Graceful shutdown, the part Quarkus leaves to us (docs/operations.md). On SIGTERM Quarkus turns readiness
 * DOWN at once ({@code quarkus.shutdown.delay-enabled}) and goes on serving for {@code quarkus.shutdown.delay}, so a
 * load balancer takes the replica out while every request still gets its real answer; then it waits up to
 * {@code quarkus.shutdown.timeout} for the requests in flight, but Quarkus 3.33 serves new requests meanwhile too
 * (only adding {@code Connection: close}), so without this gate a sender still reaching the replica keeps getting
 * 202s until the process is gone. From the end of the delay every new application request (ingest, control, status
 * page; not {@code /q/*}: health and metrics answer to the end) is refused: 503 with {@code Retry-After}
 * ({@link IngestResult#UNAVAILABLE_RETRY_AFTER_SECONDS}, 30 s) and {@code {"status":"unavailable","reason":"shutting_down"}},
 * nothing read, nothing stored, so the sender retries, on another replica. A Vert.x route that runs first, as soon as
 * a request head is in: a request is let in or refused when it arrives, before the ingest gate reads its body, so an
 * upload that started before the refusals began is in flight and gets its true answer.
 *
 * <p>Failure policy: fail closed after the delay. A request the gate refuses was never started; one it let in before
 * is in flight and gets its true answer (its group commit finishes before the pool closes).
 */
@ApplicationScoped
public class ShutdownGate {

    private static final Logger LOG = Logger.getLogger(ShutdownGate.class);
    static final String REASON = "shutting_down";
    /** First of all routes: ahead of the ingest gate's (io.webhookbuffer.ingress.IngressGate), which reads bodies. */
    static final int ORDER = QuarkusHttpInternals.REQUEST_ORDER;

    private final long delayNanos;
    private final String retryAfter;
    private final byte[] refusal;
    private final AtomicLong refused = new AtomicLong();
    private volatile boolean shuttingDown;
    private volatile long refuseFromNanos;

    public ShutdownGate(@ConfigProperty(name = "quarkus.shutdown.delay") Optional<Duration> delay,
            ObjectMapper json) throws JsonProcessingException {
        this.delayNanos = delay.filter(d -> !d.isNegative()).orElse(Duration.ZERO).toNanos();
        this.retryAfter = Integer.toString(IngestResult.UNAVAILABLE_RETRY_AFTER_SECONDS);
        this.refusal = json.writeValueAsBytes(new IngressReply("unavailable", null, REASON));
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

    void routes(@Observes Router router) {
        router.route().order(ORDER).handler(this::refuseAfterTheDelay);
    }

    /** Before anything else reads the request: after the delay, the refusal; until then, the next route. */
    private void refuseAfterTheDelay(RoutingContext ctx) {
        if (!shuttingDown || System.nanoTime() - refuseFromNanos < 0 || ctx.normalizedPath().startsWith("/q/")) {
            ctx.next();
            return;
        }
        refused.incrementAndGet();
        ctx.response().setStatusCode(503).putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                .putHeader("Retry-After", retryAfter).end(Buffer.buffer(refusal));
    }
}
