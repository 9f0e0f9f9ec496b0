package io.webhookbuffer.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;

import org.junit.jupiter.api.Test;

import io.webhookbuffer.local.LocalServers;

/**
 * The test database holds nothing older than this JVM ({@link FreshTestDatabase}): its migrations, if any ran yet,
 * ran after the JVM started, and no tenant row predates it. A database kept from an earlier run fails both.
 */
class FreshTestDatabaseTests {

    @Test
    void theTestDatabaseHoldsNothingFromBeforeThisRun() throws SQLException {
        Timestamp jvmStart = new Timestamp(ManagementFactory.getRuntimeMXBean().getStartTime());
        LocalServers.Endpoint pg = ServiceProcess.postgres();
        String url = "jdbc:postgresql://" + pg.host() + ":" + pg.port() + "/" + pg.database();
        try (Connection c = DriverManager.getConnection(url, pg.user(), "")) {
            if (tableExists(c, "flyway_schema_history")) {
                try (PreparedStatement st = c.prepareStatement(
                        "SELECT count(*) FROM flyway_schema_history WHERE installed_on < ?")) {
                    st.setTimestamp(1, jvmStart);
                    assertEquals(0, count(st), "migrations applied before this JVM started: a kept database");
                }
            }
            if (tableExists(c, "tenants")) {
                try (PreparedStatement st = c.prepareStatement("SELECT count(*) FROM tenants WHERE created_at < ?")) {
                    st.setTimestamp(1, jvmStart);
                    assertEquals(0, count(st), "tenants made before this JVM started: rows of an earlier run");
                }
            }
        }
        assertTrue(pg.embedded() || System.getProperty("webhookbuffer.test-database.reset") != null,
                "the local PostgreSQL's test database was made afresh for this JVM");
    }

    private static boolean tableExists(Connection c, String table) throws SQLException {
        try (PreparedStatement st = c.prepareStatement("SELECT to_regclass(?) IS NOT NULL")) {
            st.setString(1, "public." + table);
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                return rs.getBoolean(1);
            }
        }
    }

    private static long count(PreparedStatement st) throws SQLException {
        try (ResultSet rs = st.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
