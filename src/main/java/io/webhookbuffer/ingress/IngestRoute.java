package io.webhookbuffer.ingress;

import java.util.concurrent.CompletableFuture;

import jakarta.enterprise.context.ApplicationScoped;

import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.ext.web.RoutingContext;
import io.webhookbuffer.actor.IngestResult;
import io.webhookbuffer.common.BufferClock;

/**
 * {@code POST /webhook/{tenantId}} once {@link IngressGate} has read the body: {@link IngestService} decides, and this
 * sends its answer ({@link AnswerWriter}) from the gate's Vert.x route, on the request's own Vert.x context (the
 * decision of a new event completes on the database client's), so the log context is the request's. Answers 202 only
 * after the event is committed; see README "Ingest answers" for what a sender should do with each answer. Every other
 * method on the path is 405 with {@code Allow: POST} ({@link #methodNotAllowed}).
 */
@ApplicationScoped
public class IngestRoute {

    private final IngestService ingest;
    private final BufferClock clock;
    private final AnswerWriter writer;
    private final RequestLog log;
    private final long unavailableRetryAfter;

    public IngestRoute(IngestService ingest, BufferClock clock, AnswerWriter writer, RequestLog log) {
        this.ingest = ingest;
        this.clock = clock;
        this.writer = writer;
        this.log = log;
        this.unavailableRetryAfter = IngestResult.UNAVAILABLE_RETRY_AFTER_SECONDS;
    }

    /** Answers a request the gate admitted (its tenant and whole body); called on the request's context. */
    void answer(RoutingContext ctx, IngressGate.Admitted admitted) {
        long started = System.nanoTime();
        log.started(ctx);
        CompletableFuture<IngestAnswer> decision = decide(ctx, admitted);
        if (decision.isDone()) {
            finish(ctx, decision, started, admitted);
            return;
        }
        Context context = Vertx.currentContext();
        decision.whenComplete((answer, failure) -> {
            if (Vertx.currentContext() == context) {
                finish(ctx, decision, started, admitted);
            } else {
                context.runOnContext(v -> finish(ctx, decision, started, admitted));
            }
        });
    }

    /** Not an ingest attempt: 405 with {@code Allow: POST}, counted nowhere. */
    void methodNotAllowed(RoutingContext ctx) {
        log.started(ctx);
        writer.send(ctx, null, IngestAnswer.methodNotAllowed(), System.nanoTime(), 0);
    }

    private CompletableFuture<IngestAnswer> decide(RoutingContext ctx, IngressGate.Admitted admitted) {
        try {
            return ingest.admit(admitted, ctx.request()::getHeader, clock.millis()).toCompletableFuture();
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private void finish(RoutingContext ctx, CompletableFuture<IngestAnswer> decision, long started,
            IngressGate.Admitted admitted) {
        IngestAnswer answer;
        try {
            answer = decision.join();
        } catch (RuntimeException e) {
            // Failure policy: a failed admission is a 503 with Retry-After: nothing is known to be stored, and the
            // provider retries.
            answer = IngestAnswer.unavailable(unavailableRetryAfter);
        }
        writer.send(ctx, admitted.tenant(), answer, started, admitted.length());
    }
}
