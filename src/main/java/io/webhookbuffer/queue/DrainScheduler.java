package io.webhookbuffer.queue;

/** Told when a tenant has newly stored events, so its drain runs without a scan of every tenant. */
public interface DrainScheduler {

    void wake(String tenantId);
}
