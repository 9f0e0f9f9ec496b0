package io.webhookbuffer.ratelimit.shared;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.webhookbuffer.metrics.MetricNames;
import io.webhookbuffer.ratelimit.LeasedWindow;
import io.webhookbuffer.ratelimit.LeasedWindow.LeaseRequest;
import io.webhookbuffer.ratelimit.LeasedWindow.Taken;
import io.webhookbuffer.ratelimit.LeasedWindow.Wait;
import io.webhookbuffer.testsupport.InjectRedisProxy;
import io.webhookbuffer.testsupport.ProxiedDependenciesProfile;
import io.webhookbuffer.testsupport.Scrape;
import io.webhookbuffer.testsupport.Signed;
import io.webhookbuffer.testsupport.TcpProxy;
import io.webhookbuffer.testsupport.TestTenants;

/**
 * The shared windows on the real Redis: the lease script's arithmetic, two replicas' windows on one tenant together
 * admitting exactly its limit (each alone would admit all of it), and ingest on the local share while Redis is cut.
 */
@QuarkusTest
@TestProfile(ProxiedDependenciesProfile.class)
class SharedWindowTests {

    private static final Duration PATIENCE = Duration.ofSeconds(15);

    @Inject
    SharedWindows leases;

    @InjectRedisProxy
    TcpProxy redis;

    @AfterEach
    void restore() throws Exception {
        redis.restore();
    }

    @Test
    void theScriptGrantsUpToTheLimitThenDeniesWithRetryAfterAndTakesGivenBackSlots() throws Exception {
        String tenant = "sw-" + UUID.randomUUID();
        Scrape before = Scrape.now();
        SharedWindows.Grant first = lease(tenant, 5, 60, new LeaseRequest(3, Map.of()));
        assertEquals(3, first.granted());
        assertEquals(2, lease(tenant, 5, 60, new LeaseRequest(3, Map.of())).granted(), "what the window has left");
        SharedWindows.Grant none = lease(tenant, 5, 60, new LeaseRequest(3, Map.of()));
        assertEquals(0, none.granted());
        assertTrue(none.retryAfterSeconds() >= 1 && none.retryAfterSeconds() <= 60, "until the oldest slot leaves: "
                + none.retryAfterSeconds());
        assertEquals(2, lease(tenant, 5, 60, new LeaseRequest(3, Map.of(first.second(), 2))).granted(),
                "two slots given back are granted again");
        assertEquals(0, lease(tenant + "-other", 5, 60, new LeaseRequest(0, Map.of())).granted(), "asked for none");
        Scrape after = Scrape.now();
        String leases = MetricNames.RATELIMIT_LEASES.prometheus();
        assertEquals(3, after.count(leases, "outcome", "granted") - before.count(leases, "outcome", "granted"));
        assertEquals(2, after.count(leases, "outcome", "denied") - before.count(leases, "outcome", "denied"));
        String latency = MetricNames.RATELIMIT_LEASE_LATENCY.prometheus() + "_count";
        assertEquals(5, after.count(latency) - before.count(latency), "each answered lease timed");
    }

    @Test
    void theScriptCountsWhatALocalShareAdmittedAtItsAgeAndIgnoresWhatLeftTheWindow() throws Exception {
        String tenant = "sw-" + UUID.randomUUID();
        assertEquals(2, lease(tenant, 5, 60, new LeaseRequest(5, Map.of(), Map.of(0L, 1, 30L, 2))).granted(),
                "three admitted on the share in the window: two of five left");
        String other = "sw-" + UUID.randomUUID();
        assertEquals(5, lease(other, 5, 60, new LeaseRequest(5, Map.of(), Map.of(60L, 4, 600L, 4))).granted(),
                "admitted a window or more ago: nothing to count");
    }

    @Test
    void twoReplicasWindowsOnOneTenantTogetherAdmitExactlyItsLimit() throws Exception {
        String tenant = "sw-" + UUID.randomUUID();
        int limit = 200;
        List<LeasedWindow> replicas = List.of(new LeasedWindow(limit, 60, 100, 30), new LeasedWindow(limit, 60, 100, 30));
        int admitted = 0;
        boolean[] refused = new boolean[2];
        for (int i = 0; i < 10 * limit && !(refused[0] && refused[1]); i++) {
            int r = i % 2;
            LeasedWindow w = replicas.get(r);
            LeasedWindow.Take take = w.take(100, 2);
            if (take instanceof Wait) {
                LeaseRequest request = w.leaseWanted(100, true);
                SharedWindows.Grant g = lease(tenant, limit, 60, request);
                w.granted(g.second(), g.granted(), g.retryAfterSeconds(), 100);
                take = w.take(100, 2);
            }
            if (take instanceof Taken) {
                admitted++;
            } else {
                refused[r] = true;
            }
        }
        assertEquals(limit, admitted, "two replicas, one limit (a window per replica admitted 2 x " + limit + ")");
    }

    @Test
    void withRedisCutIngestAdmitsOnTheLocalShareAndSaysSoThenLeasesAgain() throws Exception {
        String t = TestTenants.tenant().rateLimit(4, 60).senderRetries("long").provision();
        // Alone: an app of an earlier test profile that did not say goodbye lapses within three heartbeats.
        await().atMost(Duration.ofSeconds(30)).until(() -> leases.replicas() == 1);
        assertEquals(1.0, Scrape.now().value(MetricNames.RATELIMIT_REPLICAS.prometheus()), "buffer_ratelimit_replicas");
        double failed = Scrape.now().count(MetricNames.RATELIMIT_LEASES.prometheus(), "outcome", "failed");
        redis.cut();
        int accepted = 0;
        int limited = 0;
        for (int i = 0; i < 6; i++) {
            int status = Signed.webhook(TestTenants.DEFAULT_SECRET, "{\"i\":" + i + "}").header("X-Event-ID", "cut-" + i)
                    .post("/webhook/" + t).statusCode();
            accepted += status == 202 ? 1 : 0;
            limited += status == 429 ? 1 : 0;
        }
        assertEquals(4, accepted, "nothing lost while Redis is away: the local share (4 / 1 replica) admits");
        assertEquals(2, limited, "and still limits");
        assertEquals(1.0, Scrape.now().value(MetricNames.RATELIMIT_FALLBACK.prometheus()));
        assertTrue(Scrape.now().count(MetricNames.RATELIMIT_LEASES.prometheus(), "outcome", "failed") > failed,
                "the leases asked while Redis was cut failed");

        redis.restore();
        // The share's four admissions are reported with the first lease after Redis is back: the shared window is
        // full for this tenant, so its events stay refused (a window that forgot them would admit four more).
        double denied = Scrape.now().count(MetricNames.RATELIMIT_LEASES.prometheus(), "outcome", "denied");
        int[] m = {0};
        await().atMost(PATIENCE).pollInterval(Duration.ofMillis(250)).until(() -> {
            Signed.webhook(TestTenants.DEFAULT_SECRET, "{\"m\":" + m[0] + "}").header("X-Event-ID", "after-" + m[0]++)
                    .post("/webhook/" + t).then().statusCode(429);
            return Scrape.now().count(MetricNames.RATELIMIT_LEASES.prometheus(), "outcome", "denied") > denied;
        });
        String other = TestTenants.tenant().rateLimit(100, 60).provision();
        int[] n = {0};
        await().atMost(PATIENCE).pollInterval(Duration.ofMillis(250)).until(() -> {
            Signed.webhook(TestTenants.DEFAULT_SECRET, "{\"n\":" + n[0] + "}").header("X-Event-ID", "back-" + n[0]++)
                    .post("/webhook/" + other).then().statusCode(202);
            return Double.valueOf(0).equals(Scrape.now().value(MetricNames.RATELIMIT_FALLBACK.prometheus()));
        });
    }

    private SharedWindows.Grant lease(String tenant, int limit, int window, LeaseRequest request) throws Exception {
        return leases.lease(tenant, limit, window, request).toCompletableFuture().get(5, TimeUnit.SECONDS);
    }
}
