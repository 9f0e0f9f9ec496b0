package io.webhookbuffer.delivery;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.webhookbuffer.testsupport.FakeOrigin;
import io.webhookbuffer.testsupport.FakeOrigin.Answer;
import io.webhookbuffer.testsupport.ServiceProcess;

/**
 * Two replicas of the packaged service, as real processes, on one PostgreSQL and one Redis: they share a backlog
 * with no event delivered by both at once and none lost, and when one is killed mid-drain the other takes its
 * tenants over once the lease expires.
 */
class TwoReplicasIT {

    private static final String WEBHOOK_SECRET = "replicas-webhook-secret";
    private final List<ServiceProcess> replicas = new ArrayList<>();

    @AfterEach
    void stopReplicas() {
        replicas.forEach(ServiceProcess::close);
    }

    @Test
    void twoReplicasShareABacklogWithoutOverlapOrLossAndSurviveOneDying() throws Exception {
        try (FakeOrigin origin = new FakeOrigin()) {
            String tenant = "replicas-" + UUID.randomUUID().toString().substring(0, 8);
            origin.answer(tenant, batch -> new Answer(200, Map.of(), "", 20)); // slow enough for an overlap to show
            ServiceProcess a = start(origin.baseUrl(), "a");
            ServiceProcess b = start(origin.baseUrl(), "b");
            a.awaitReady();
            b.awaitReady();
            assertEquals(200, a.command(tenant,
                    "{\"secrets\":[\"" + WEBHOOK_SECRET + "\"],\"rateLimit\":100000,\"rateWindowSeconds\":1}"));

            int events = 600;
            Set<String> acknowledged = new HashSet<>();
            for (int i = 0; i < events; i++) {
                if (i == events / 2) {
                    a.process().destroyForcibly(); // a replica dies mid-drain, likely holding the tenant's lease
                    a.process().waitFor();
                }
                ServiceProcess target = i % 2 == 0 && a.isAlive() ? a : b;
                String id = "rep-" + i;
                assertEquals(202, target.webhook(tenant, WEBHOOK_SECRET, id), "event " + id);
                acknowledged.add(id);
            }
            // Everything acknowledged reaches the origin, also what the dead replica held when it died.
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                    .until(() -> new HashSet<>(origin.providerIds(tenant)).containsAll(acknowledged));
            assertEquals(1, origin.maxConcurrent(tenant), "two batches of one tenant were in flight at once");
        }
    }

    private ServiceProcess start(String originUrl, String name) throws IOException {
        ServiceProcess p = ServiceProcess.start("replica-" + name, ServiceProcess.shortWarmup(quickDelivery(originUrl)));
        replicas.add(p);
        return p;
    }

    /** A replica's settings in the replica tests: a short lease TTL, quick retries, batches of 10. */
    static Map<String, String> quickDelivery(String originUrl) {
        return Map.of(
                "BUFFER_ORIGIN_BASE_URL", originUrl,
                "BUFFER_DELIVERY_LEASE_TTL", "2s",
                "BUFFER_DELIVERY_REQUEST_TIMEOUT", "1s",
                "BUFFER_DELIVERY_SWEEP_INTERVAL", "500ms",
                "BUFFER_DELIVERY_BACKOFF_BASE", "50ms",
                "BUFFER_DELIVERY_BACKOFF_CAP", "500ms",
                "BUFFER_DELIVERY_BATCH_SIZE", "10");
    }
}
