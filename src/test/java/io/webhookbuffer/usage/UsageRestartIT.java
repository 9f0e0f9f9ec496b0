package io.webhookbuffer.usage;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.webhookbuffer.local.LocalServers;
import io.webhookbuffer.testsupport.ServiceProcess;

/**
 * Usage counts survive a restart of the packaged service: with the periodic flush an hour away, nothing reaches
 * PostgreSQL while the process runs (no write per event), the graceful shutdown flushes what it counted, and the
 * restarted process adds to it.
 */
class UsageRestartIT {

    private static final String WEBHOOK_SECRET = "restart-webhook-secret";
    private final List<ServiceProcess> replicas = new ArrayList<>();

    @AfterEach
    void stop() {
        replicas.forEach(ServiceProcess::close);
    }

    @Test
    void countsAreFlushedAtShutdownAndAddUpAcrossRestarts() throws Exception {
        String tenant = "restart-" + UUID.randomUUID().toString().substring(0, 8);
        ServiceProcess first = startReplica("usage-1");
        assertEquals(200, first.command(tenant, "{\"secrets\":[\"" + WEBHOOK_SECRET + "\"]}"));
        for (int i = 0; i < 5; i++) {
            assertEquals(202, first.webhook(tenant, WEBHOOK_SECRET, "e" + i));
        }
        assertEquals(200, first.webhook(tenant, WEBHOOK_SECRET, "e0"));
        // Counted in memory and added to PostgreSQL every 10 s (UsageFlusher); what the last 10 s counted is added at
        // shutdown. The start-up and these requests usually take less than the first interval, so usually nothing
        // is stored yet and the shutdown's flush stores it all.
        long storedWhileRunning = sum(tenant, "received");
        System.out.printf("UsageRestartIT: %d of 6 stored before the shutdown%n", storedWhileRunning);

        stopGracefully(first);
        assertEquals(6, sum(tenant, "received"));
        assertEquals(5, sum(tenant, "accepted"));
        assertEquals(1, sum(tenant, "deduplicated"));

        ServiceProcess second = startReplica("usage-2");
        assertEquals(202, second.webhook(tenant, WEBHOOK_SECRET, "e5"));
        stopGracefully(second);
        assertEquals(6, sum(tenant, "accepted"), "the restarted process adds to what the first stored");
        assertEquals(7, sum(tenant, "received"));
    }

    private ServiceProcess startReplica(String name) throws Exception {
        // No shutdown delay (5 s by default, twice per run): the flush this test checks comes after it either way.
        ServiceProcess replica = ServiceProcess.start(name, ServiceProcess.shortWarmup(
                Map.of("QUARKUS_SHUTDOWN_DELAY", "0s")));
        replicas.add(replica);
        return replica.awaitReady();
    }

    private static void stopGracefully(ServiceProcess replica) throws InterruptedException {
        replica.process().destroy(); // SIGTERM: Quarkus runs its shutdown observers
        assertEquals(true, replica.process().waitFor(60, TimeUnit.SECONDS), "the process stopped");
    }

    private static long sum(String tenant, String column) throws Exception {
        LocalServers.Endpoint pg = ServiceProcess.postgres();
        String url = "jdbc:postgresql://" + pg.host() + ":" + pg.port() + "/" + pg.database();
        try (Connection c = DriverManager.getConnection(url, pg.user(), null);
                PreparedStatement s = c.prepareStatement(
                        "SELECT coalesce(sum(" + column + "), 0) FROM usage_buckets WHERE tenant_id = ?")) {
            s.setString(1, tenant);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }
}
