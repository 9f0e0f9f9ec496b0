package io.webhookbuffer.queue;

import java.util.Map;

import io.quarkus.test.junit.QuarkusTestProfile;

/**
 * A small default quota, a storage guard, and a backlog snapshot that runs once at start and then only when the test calls it, so
 * what the replica knows of the database's figures changes only when the test says so.
 */
public class QueueQuotaProfile implements QuarkusTestProfile {

    public static final int DEFAULT_QUOTA = 4096;
    /** The storage guard: far above what the suite's other tests leave queued in the shared test database. */
    public static final long STORAGE = 64L << 20;

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("buffer.queue.max-queued-bytes-per-tenant", Integer.toString(DEFAULT_QUOTA),
                "buffer.queue.snapshot-interval", "1h", "buffer.queue.max-queued-bytes", Long.toString(STORAGE));
    }
}
