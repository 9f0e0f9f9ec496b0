package io.webhookbuffer.ingress;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;

import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;

/**
 * Where large bodies are MACed: a Vert.x worker pool of {@code buffer.ingress.verification.threads} threads (never the
 * event loop), with at most {@code max-pending} verifications waiting or running. The answer comes back on the
 * caller's context, so the rest of the ingest continues on its event loop as for a small body.
 */
@ApplicationScoped
public class VerificationPool {

    static final String THREAD_NAME = "buffer-verify";

    private final WorkerExecutor executor;
    private final int maxPending;
    private final AtomicInteger pending = new AtomicInteger();

    public VerificationPool(Vertx vertx, IngressConfig config) {
        this.executor = vertx.createSharedWorkerExecutor(THREAD_NAME, config.verification().threads());
        this.maxPending = config.verification().maxPending();
    }

    /** The task's result, completed on the caller's context; null when {@code max-pending} are already taken. */
    <T> CompletionStage<T> submit(Callable<T> task) {
        if (pending.incrementAndGet() > maxPending) {
            pending.decrementAndGet();
            return null;
        }
        return executor.executeBlocking(task, false).onComplete(done -> pending.decrementAndGet()).toCompletionStage();
    }

    @PreDestroy
    void close() {
        executor.close();
    }
}
