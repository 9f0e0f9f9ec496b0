package io.webhookbuffer.testsupport;

import java.util.List;

import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;

/** Reads the real database from a test, on its own connection (what another replica would see). */
public final class Db {

    private Db() {
    }

    public static long queued(Pool pool, String tenantId) {
        return count(pool, "SELECT count(*) FROM event_queue WHERE tenant_id = $1", tenantId);
    }

    public static long dedupeRows(Pool pool, String tenantId) {
        return count(pool, "SELECT count(*) FROM processed_events WHERE tenant_id = $1", tenantId);
    }

    public static List<Row> queueRows(Pool pool, String tenantId) {
        var rows = pool.preparedQuery("SELECT * FROM event_queue WHERE tenant_id = $1 ORDER BY id")
                .execute(Tuple.of(tenantId)).await().indefinitely();
        List<Row> out = new java.util.ArrayList<>();
        rows.forEach(out::add);
        return out;
    }

    private static long count(Pool pool, String sql, String tenantId) {
        return pool.preparedQuery(sql).execute(Tuple.of(tenantId)).await().indefinitely().iterator().next().getLong(0);
    }
}
