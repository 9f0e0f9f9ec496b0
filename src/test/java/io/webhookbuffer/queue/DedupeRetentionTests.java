package io.webhookbuffer.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.UUID;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import io.webhookbuffer.testsupport.Db;

/** Dedupe records older than the retention go, in batches; younger ones stay. */
@QuarkusTest
class DedupeRetentionTests {

    @Inject
    Pool pool;

    @Inject
    DedupeRetention retention;

    @Inject
    DedupeConfig config;

    @Test
    void purgeRemovesOnlyRecordsOlderThanTheCutoffAcrossSeveralBatches() {
        String old = "ret-old-" + UUID.randomUUID().toString().substring(0, 8);
        String fresh = "ret-new-" + UUID.randomUUID().toString().substring(0, 8);
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
        int oldRows = config.cleanupBatchSize() * 2 + 17; // more than two batches
        insert(old, oldRows, now.minusDays(5));
        insert(fresh, 25, now.minusDays(3));

        long deleted = retention.purgeOlderThan(now.minus(config.retention())).await().indefinitely();

        assertTrue(deleted >= oldRows, "at least our old rows went: " + deleted);
        assertEquals(0, Db.dedupeRows(pool, old));
        assertEquals(25, Db.dedupeRows(pool, fresh));
    }

    private void insert(String tenant, int n, OffsetDateTime receivedAt) {
        pool.preparedQuery("""
                INSERT INTO processed_events (tenant_id, event_id, received_at)
                SELECT $1, 'e-' || g, $2 FROM generate_series(1, $3) g""")
                .execute(Tuple.of(tenant, receivedAt, n)).await().indefinitely();
    }
}
