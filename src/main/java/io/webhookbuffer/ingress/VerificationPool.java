package io.webhookbuffer.ingress;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletionStage;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;

import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import io.webhookbuffer.common.FairShare;

/**
 * Where large bodies are MACed: a Vert.x worker pool of {@code buffer.ingress.verification.threads} threads (never the
 * event loop), with at most {@code max-pending} verifications waiting or running, a {@link FairShare} between tenants:
 * large bodies aimed at one tenant hold at most half of the places, and never refuse another tenant's. The answer
 * comes back on the caller's context, so the rest of the ingest continues on its event loop as for a small body.
 */
@ApplicationScoped
public class VerificationPool {

    static final String THREAD_NAME = "buffer-verify";

    private final WorkerExecutor executor;
    private final FairShare pending;

    public VerificationPool(Vertx vertx, IngressConfig config) {
        this.executor = vertx.createSharedWorkerExecutor(THREAD_NAME, config.verification().threads());
        this.pending = new FairShare(config.verification().maxPending());
    }

    /**
     * The task's result, completed on the caller's context; null when {@code tenantId} holds its share of
     * {@code max-pending} already.
     */
    <T> CompletionStage<T> submit(String tenantId, Callable<T> task) {
        if (!pending.tryTake(tenantId, 1)) {
            return null;
        }
        return executor.executeBlocking(task, false).onComplete(done -> pending.giveBack(tenantId, 1))
                .toCompletionStage();
    }

    @PreDestroy
    void close() {
        executor.close();
    }
}
