package io.webhookbuffer.testsupport;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

import org.jboss.logging.Logger;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

import io.webhookbuffer.local.LocalServers;
import io.webhookbuffer.local.LocalServersConfigSourceFactory;

/**
 * Once per test JVM (Surefire's, then Failsafe's), before any test or application starts: the test database on the
 * local PostgreSQL is dropped and made again, so every run begins with no rows from an earlier one. Rows left by an
 * earlier run are not inert: their tenants' secrets are sealed under that run's key file (a fresh clone makes a new
 * one), and their queued events are drained by the next run's replicas, which then log an ERROR per tenant and hold
 * drain leases a test does not expect (CI of stop 24: TortureIT and GracefulShutdownIT failed on a database kept
 * from the run before). With no PostgreSQL on 127.0.0.1 the tests start an embedded one with a throwaway folder,
 * fresh already. The migrations run when the first application starts, as on any empty database.
 */
public class FreshTestDatabase implements LauncherSessionListener {

    private static final Logger LOG = Logger.getLogger(FreshTestDatabase.class);
    /** A JVM-wide mark, so a second launcher session in the same JVM (an IDE's re-run) starts clean too, once. */
    private static final String DONE = "webhookbuffer.test-database.reset";

    @Override
    public void launcherSessionOpened(LauncherSession session) {
        if (System.getProperty(DONE) != null || !localPostgresAnswers()) {
            return;
        }
        System.setProperty(DONE, "true");
        reset(LocalServersConfigSourceFactory.TEST_DATABASE);
    }

    /** Drops {@code database} on the local PostgreSQL (ending its sessions) and makes it again, empty. */
    public static void reset(String database) {
        String name = database.replace("\"", "");
        String url = "jdbc:postgresql://127.0.0.1:" + LocalServers.POSTGRES_PORT + "/postgres";
        try (Connection c = DriverManager.getConnection(url, "postgres", ""); Statement st = c.createStatement()) {
            st.execute("DROP DATABASE IF EXISTS \"" + name + "\" WITH (FORCE)");
            st.execute("CREATE DATABASE \"" + name + "\"");
            LOG.infof("tests: database %s made afresh for this run", name);
        } catch (SQLException e) {
            throw new IllegalStateException("could not make the test database " + name + " afresh at " + url, e);
        }
    }

    private static boolean localPostgresAnswers() {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", LocalServers.POSTGRES_PORT), 300);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
