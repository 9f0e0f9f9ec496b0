package io.webhookbuffer.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Pool;

/**
 * The service's connections never plan parallel queries: the backlog snapshot's aggregate over event_queue, planned
 * with two workers, took both cores for a few hundred milliseconds every snapshot and stalled ingest.
 */
@QuarkusTest
class NoParallelQueryTests {

    @Inject
    Pool pool;

    @Test
    void everyPooledConnectionHasParallelQueryOff() {
        for (int i = 0; i < 3; i++) {
            String value = pool.query("SHOW max_parallel_workers_per_gather").execute().await().indefinitely()
                    .iterator().next().getString(0);
            assertEquals("0", value);
        }
    }
}
