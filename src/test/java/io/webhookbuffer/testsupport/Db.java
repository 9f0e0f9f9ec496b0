package io.webhookbuffer.testsupport;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import javax.sql.DataSource;

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
        List<Row> out = new ArrayList<>();
        rows.forEach(out::add);
        return out;
    }

    /**
     * A count read over JDBC ({@code quarkus.datasource.jdbc.url}), for what a test must read beside the reactive pool
     * under test, or while that pool is busy or cut off.
     */
    public static long count(DataSource direct, String sql, Object... parameters) {
        try (Connection c = direct.getConnection(); PreparedStatement st = c.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                st.setObject(i + 1, parameters[i]);
            }
            try (ResultSet r = st.executeQuery()) {
                r.next();
                return r.getLong(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A statement run over JDBC, as {@link #count(DataSource, String, Object...)} reads: what it changed. */
    public static int execute(DataSource direct, String sql, Object... parameters) {
        try (Connection c = direct.getConnection(); PreparedStatement st = c.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                st.setObject(i + 1, parameters[i]);
            }
            return st.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Removes every tenant's counted usage ({@code usage_buckets}), for a test about to run the usage report: a run
     * pushes a snapshot for each tenant with usage in the database, and in {@code mvn verify} the test JVM's earlier
     * classes leave one for every tenant they sent anything to (each application flushes its counts when it stops),
     * thousands, each pushed at every report. The tests read only their own tenants' snapshots.
     */
    public static void removeUsage(Pool pool) {
        pool.query("DELETE FROM usage_buckets").execute().await().indefinitely();
    }

    private static long count(Pool pool, String sql, String tenantId) {
        return pool.preparedQuery(sql).execute(Tuple.of(tenantId)).await().indefinitely().iterator().next().getLong(0);
    }
}
