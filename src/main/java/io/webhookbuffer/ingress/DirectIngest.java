package io.webhookbuffer.ingress;

import java.util.concurrent.CompletableFuture;

import jakarta.enterprise.context.ApplicationScoped;

import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;
import io.webhookbuffer.actor.ActorConfig;

/**
 * {@code POST /webhook/{tenantId}} answered from the ingest gate's Vert.x route ({@code buffer.ingress.direct-route},
 * the default): the same answers as {@link WebhookResource}, byte for byte (status, body, {@code Retry-After},
 * {@code X-Request-ID}, the metrics, the usage counts, the log context and line), without RESTEasy's dispatch, its
 * response filters and serialisers, the request scope and the context propagation around each callback. Profiles
 * put those at about 40% of the buffer's CPU at steady load (bench/results/performance-log.md), and no request scope also
 * means no {@code ContextNotActiveException} when an answer completes after the scope is gone.
 * Like {@link WebhookResource} it maps HTTP to answers and nothing more: {@link IngestService} decides. The answer is
 * written on the request's own Vert.x context (the decision of a new event completes on the database client's), so
 * the log context is the request's.
 */
@ApplicationScoped
public class DirectIngest {

    private final IngestService ingest;
    private final ReceiveClock clock;
    private final IngressListener listener;
    private final AnswerWriter writer;
    private final RequestLog log;
    private final long unavailableRetryAfter;
    private final RefusalLog refusals;

    public DirectIngest(IngestService ingest, ReceiveClock clock, IngressListener listener, AnswerWriter writer,
            RequestLog log, ActorConfig actorConfig, RefusalLog refusals) {
        this.refusals = refusals;
        this.ingest = ingest;
        this.clock = clock;
        this.listener = listener;
        this.writer = writer;
        this.log = log;
        this.unavailableRetryAfter = actorConfig.unavailableRetryAfterSeconds();
    }

    /** Answers a request the gate admitted (its tenant and whole body); called on the request's context. */
    void answer(RoutingContext ctx, IngressGate.Admitted admitted) {
        long started = System.nanoTime();
        log.started(ctx);
        CompletableFuture<IngestService.Admission> decision = decide(ctx.request(), admitted);
        if (decision.isDone()) {
            finish(ctx, decision, started, admitted);
            return;
        }
        Context context = Vertx.currentContext();
        decision.whenComplete((admission, failure) -> {
            if (Vertx.currentContext() == context) {
                finish(ctx, decision, started, admitted);
            } else {
                context.runOnContext(v -> finish(ctx, decision, started, admitted));
            }
        });
    }

    private CompletableFuture<IngestService.Admission> decide(HttpServerRequest request,
            IngressGate.Admitted admitted) {
        try {
            return ingest.admit(admitted.tenant(), request::getHeader, admitted.body(),
                    clock.millis(), admitted.checked(), admitted.length()).toCompletableFuture();
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private void finish(RoutingContext ctx, CompletableFuture<IngestService.Admission> decision, long started,
            IngressGate.Admitted admitted) {
        IngressAnswer answer;
        try {
            answer = IngressResponses.of(decision.join());
        } catch (RuntimeException e) {
            // Failure policy: as in WebhookResource, a failed admission is a 503 with Retry-After: nothing is known
            // to be stored, and the provider retries.
            answer = IngressResponses.unavailable(unavailableRetryAfter);
        }
        if (!admitted.rehearsal()) {
            answer.reportTo(listener, started); // the warm-up's rehearsal requests are not reported
            refusals.record(admitted.tenant(), answer, ctx.request().headers().names(), admitted.length(),
                    ctx.request().remoteAddress());
        }
        log.answered(ctx, answer.status(), answer.reply());
        writer.writeAsRestEasy(ctx, answer);
    }
}
