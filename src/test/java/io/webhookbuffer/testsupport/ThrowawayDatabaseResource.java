package io.webhookbuffer.testsupport;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;

import org.flywaydb.core.Flyway;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.webhookbuffer.local.LocalServers;
import io.webhookbuffer.local.LocalServersConfigSourceFactory;

/**
 * A database of its own for a test profile, dropped and made again at each start: {@code <test database>_<name>} on
 * the test PostgreSQL. With {@code atVersion}, the schema is migrated up to that version only (plain Flyway, the
 * service's own scripts) and {@link #CLEAR_TENANTS} are written as that version stored them, with their secrets in
 * clear, so the service's start migrates a database as an upgrade finds it.
 */
public class ThrowawayDatabaseResource implements QuarkusTestResourceLifecycleManager {

    /** A tenant as a version before secrets at rest stored it. */
    public record ClearTenant(String id, List<String> secrets, String originUrl) {
    }

    public static final List<ClearTenant> CLEAR_TENANTS = List.of(
            new ClearTenant("legacy-a", List.of("legacy-secret-a-current-7f3e", "legacy-secret-a-previous-19bd"), null),
            new ClearTenant("legacy-b", List.of("legacy-secret-b-only-c42a"), "https://legacy-b.example.com"));

    private String name;
    private String atVersion;

    @Override
    public void init(Map<String, String> args) {
        name = LocalServersConfigSourceFactory.TEST_DATABASE + "_" + args.getOrDefault("name", "throwaway");
        atVersion = args.get("atVersion");
    }

    @Override
    public Map<String, String> start() {
        LocalServers.Endpoint pg = LocalServers.postgres(true, null, LocalServersConfigSourceFactory.TEST_DATABASE);
        String server = "jdbc:postgresql://" + pg.host() + ":" + pg.port() + "/";
        try (Connection c = DriverManager.getConnection(server + "postgres", pg.user(), "");
                Statement st = c.createStatement()) {
            st.execute("DROP DATABASE IF EXISTS \"" + name + "\" WITH (FORCE)");
            st.execute("CREATE DATABASE \"" + name + "\"");
        } catch (SQLException e) {
            throw new IllegalStateException("could not make database " + name, e);
        }
        if (atVersion != null) {
            Flyway.configure().dataSource(server + name, pg.user(), "").locations("classpath:db/migration")
                    .target(atVersion).load().migrate();
            writeClearTenants(server + name, pg.user());
        }
        String hostPortDb = pg.host() + ":" + pg.port() + "/" + name;
        return Map.of("quarkus.datasource.reactive.url", "postgresql://" + hostPortDb,
                "quarkus.datasource.jdbc.url", "jdbc:postgresql://" + hostPortDb,
                "quarkus.datasource.username", pg.user());
    }

    private static void writeClearTenants(String url, String user) {
        try (Connection c = DriverManager.getConnection(url, user, "");
                PreparedStatement st = c.prepareStatement("INSERT INTO tenants (tenant_id, active, provider, secrets, "
                        + "rate_limit, rate_window_seconds, origin_url) VALUES (?, true, 'generic', ?, 1000, 10, ?)")) {
            for (ClearTenant t : CLEAR_TENANTS) {
                st.setString(1, t.id());
                st.setArray(2, c.createArrayOf("text", t.secrets().toArray()));
                st.setString(3, t.originUrl());
                st.addBatch();
            }
            st.executeBatch();
        } catch (SQLException e) {
            throw new IllegalStateException("could not write the clear tenants", e);
        }
    }

    @Override
    public void stop() {
        // kept until the next start: a failed test's database can be looked at
    }
}
