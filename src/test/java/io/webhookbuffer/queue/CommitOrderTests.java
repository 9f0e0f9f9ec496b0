package io.webhookbuffer.queue;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * Several replicas commit one tenant's events at once. The drainer reads a tenant's rows after a cursor (the highest id
 * it delivered), so a row whose commit came after a row with a higher id would be read only after rows sent later
 * still: an event acknowledged before another was sent would reach the origin after it (the benchmark's order check
 * saw this with three replicas). The commit therefore takes its tenants' locks first: a tenant's rows commit in the
 * order of their ids.
 */
@QuarkusTest
class CommitOrderTests {

    private static final Duration PATIENCE = Duration.ofSeconds(10);

    @Inject
    Pool pool;

    @Test
    void aSecondWriterOfATenantCommitsOnlyAfterTheFirstSoItsRowsCommitInIdOrder() {
        String tenant = "order-" + UUID.randomUUID();
        SqlConnection first = pool.getConnection().await().atMost(PATIENCE);
        SqlConnection second = pool.getConnection().await().atMost(PATIENCE);
        try {
            first.query("BEGIN").execute().await().atMost(PATIENCE);
            insert(first, tenant, "y").await().atMost(PATIENCE); // open: its row has an id, not yet committed
            int secondPid = pid(second);
            CompletableFuture<?> z = insert(second, tenant, "z").subscribeAsCompletionStage();
            await().atMost(PATIENCE).until(() -> z.isDone() || waitsForALock(secondPid));
            assertFalse(z.isDone(), "the second writer of the tenant committed while the first was still open: a"
                    + " drainer past its row would never look back for the first");
            first.query("COMMIT").execute().await().atMost(PATIENCE);
            await().atMost(PATIENCE).until(z::isDone);
            List<String> byId = pool.preparedQuery("SELECT event_id FROM event_queue WHERE tenant_id = $1 ORDER BY id")
                    .execute(Tuple.of(tenant)).await().atMost(PATIENCE).stream().map(r -> r.getString(0)).toList();
            assertEquals(List.of("y", "z"), byId);
        } finally {
            first.closeAndAwait();
            second.closeAndAwait();
        }
    }

    @Test
    void aDeadLetterReplayWaitsForAnOpenCommitOfItsTenantSoItsRowsCommitInIdOrderToo() {
        String tenant = "order-" + UUID.randomUUID();
        pool.preparedQuery("""
                INSERT INTO dead_letters (tenant_id, event_id, body, content_type, headers, received_at, attempts,
                    last_status, last_error)
                VALUES ($1, 'replayed', '\\x7b7d', 'application/json', '{}', now(), 1, 500, 'HTTP 500')""")
                .execute(Tuple.of(tenant)).await().atMost(PATIENCE);
        SqlConnection first = pool.getConnection().await().atMost(PATIENCE);
        SqlConnection second = pool.getConnection().await().atMost(PATIENCE);
        try {
            first.query("BEGIN").execute().await().atMost(PATIENCE);
            insert(first, tenant, "y").await().atMost(PATIENCE); // open: its row has an id, not yet committed
            int secondPid = pid(second);
            CompletableFuture<?> replay = second.preparedQuery(DeadLetterStore.REPLAY)
                    .execute(Tuple.of(tenant, new Long[0], null, null)).subscribeAsCompletionStage();
            await().atMost(PATIENCE).until(() -> replay.isDone() || waitsForALock(secondPid));
            assertFalse(replay.isDone(), "the replay of the tenant's dead letter committed while a commit of the"
                    + " tenant was still open: a drainer past the replayed row would never look back for the first");
            first.query("COMMIT").execute().await().atMost(PATIENCE);
            await().atMost(PATIENCE).until(replay::isDone);
            List<String> byId = pool.preparedQuery("SELECT event_id FROM event_queue WHERE tenant_id = $1 ORDER BY id")
                    .execute(Tuple.of(tenant)).await().atMost(PATIENCE).stream().map(r -> r.getString(0)).toList();
            assertEquals(List.of("y", "replayed"), byId);
        } finally {
            first.closeAndAwait();
            second.closeAndAwait();
        }
    }

    @Test
    void writersOfTenantsInOtherLockBucketsDoNotWaitForEachOther() {
        String tenant = "order-" + UUID.randomUUID();
        String other = tenantInAnotherBucket(tenant);
        SqlConnection first = pool.getConnection().await().atMost(PATIENCE);
        try {
            first.query("BEGIN").execute().await().atMost(PATIENCE);
            insert(first, tenant, "a").await().atMost(PATIENCE);
            insert(pool, other, "b").await().atMost(PATIENCE); // would time out if it waited for the open one
            first.query("COMMIT").execute().await().atMost(PATIENCE);
        } finally {
            first.closeAndAwait();
        }
        long stored = pool.preparedQuery("SELECT count(*) FROM event_queue WHERE tenant_id = ANY($1)")
                .execute(Tuple.of(new String[] {tenant, other})).await().atMost(PATIENCE).iterator().next().getLong(0);
        assertEquals(2, stored);
    }

    private static Uni<?> insert(SqlClient client, String tenant, String id) {
        IncomingEvent event = new IncomingEvent(tenant, id, "{}".getBytes(StandardCharsets.UTF_8), "application/json",
                "{}", System.currentTimeMillis());
        return client.preparedQuery(CommitSql.INSERT_BATCH)
                .execute(Tuple.newInstance(BatchArrays.of(1, i -> event)));
    }

    private static int pid(SqlConnection connection) {
        return connection.query("SELECT pg_backend_pid()").execute().await().atMost(PATIENCE).iterator().next()
                .getInteger(0);
    }

    private boolean waitsForALock(int backendPid) {
        Row row = pool.preparedQuery("SELECT wait_event_type FROM pg_stat_activity WHERE pid = $1")
                .execute(Tuple.of(backendPid)).await().atMost(PATIENCE).iterator().next();
        return "Lock".equals(row.getString(0));
    }

    private String tenantInAnotherBucket(String tenant) {
        for (int i = 0; i < 1000; i++) {
            String candidate = tenant + "-" + i;
            boolean same = pool.preparedQuery("SELECT " + CommitSql.LOCK_BUCKET.replace("tenant_id", "$1")
                    + " = " + CommitSql.LOCK_BUCKET.replace("tenant_id", "$2"))
                    .execute(Tuple.of(tenant, candidate)).await().atMost(PATIENCE).iterator().next().getBoolean(0);
            if (!same) {
                return candidate;
            }
        }
        throw new AssertionError("no tenant id in another lock bucket");
    }

    @Test
    void theLockBucketsAreBoundedSoACommitOfManyTenantsTakesAFewLocks() {
        int buckets = pool.query("SELECT count(DISTINCT " + CommitSql.LOCK_BUCKET + ") FROM (SELECT 'tenant-' || g"
                + " AS tenant_id FROM generate_series(1, 10000) g) t").execute().await().atMost(PATIENCE).iterator()
                .next().getInteger(0);
        assertTrue(buckets <= CommitSql.LOCK_BUCKETS, buckets + " buckets");
    }
}
