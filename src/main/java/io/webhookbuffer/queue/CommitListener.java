package io.webhookbuffer.queue;

/**
 * Told about every group commit when PostgreSQL answers (the metrics package implements it). Runs on a database I/O
 * thread: it must be cheap and must not block.
 */
public interface CommitListener {

    void committed(int batchSize, long nanos);
}
