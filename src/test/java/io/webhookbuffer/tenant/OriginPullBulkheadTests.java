package io.webhookbuffer.tenant;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.Test;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import io.webhookbuffer.metrics.MetricNames;
import io.webhookbuffer.testsupport.Scrape;
import io.webhookbuffer.testsupport.Signed;
import io.webhookbuffer.testsupport.TestTenants;

/**
 * Origin pull-through behind its bulkhead, against a real origin that takes 2.5 s per answer ({@link SlowTenantOrigin}:
 * 2 at once, so 8 waiting at most 1 s): 20 concurrent unknown ids ask the origin at most twice at once, the excess is
 * 503 {@code lookup_busy} with Retry-After without asking, a 404 only where the origin said so, and a tenant the origin
 * knows is pulled and its signed event accepted.
 */
@QuarkusTest
@TestProfile(OriginPullBulkheadTests.Pull.class)
@QuarkusTestResource(value = SlowTenantOrigin.class, restrictToAnnotatedClass = true)
class OriginPullBulkheadTests {

    public static class Pull implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of(); // the origin's settings come from SlowTenantOrigin; an app of its own
        }
    }

    @Test
    void aSlowOriginIsAskedWithinTheBulkheadAndTheRestAreToldToRetry() throws Exception {
        int asked = SlowTenantOrigin.ASKED.get();
        String refusals = MetricNames.INGRESS_REFUSALS.prometheus();
        double before = Scrape.now().count(refusals, "reason", "lookup_busy");
        ExecutorService senders = Executors.newFixedThreadPool(20);
        List<Future<Response>> answers = new ArrayList<>();
        try {
            for (int i = 0; i < 20; i++) {
                String id = "nobody-" + UUID.randomUUID().toString().substring(0, 8);
                answers.add(senders.submit(() -> given().body("{}").post("/webhook/" + id)));
            }
            int notFound = 0;
            int busy = 0;
            for (Future<Response> answer : answers) {
                Response r = answer.get();
                if (r.statusCode() == 404) {
                    notFound++;
                } else {
                    assertEquals(503, r.statusCode(), r.asString());
                    assertEquals("lookup_busy", r.jsonPath().getString("reason"));
                    assertEquals("1", r.header("Retry-After"));
                    busy++;
                }
            }
            int origin = SlowTenantOrigin.ASKED.get() - asked;
            assertTrue(SlowTenantOrigin.PEAK.max() <= 2, "at most 2 questions at once, saw " + SlowTenantOrigin.PEAK.max());
            assertTrue(notFound <= origin, "a 404 only where the origin answered: " + notFound + " of " + origin);
            assertTrue(origin <= 4 && busy >= 16, "the rest refused without asking: origin asked " + origin + ", busy " + busy);
            assertEquals(busy, Scrape.now().count(refusals, "reason", "lookup_busy") - before, "each 503 counted");
        } finally {
            senders.shutdownNow();
        }
    }

    @Test
    void aTenantTheOriginKnowsIsPulledAndItsEventAccepted() {
        String id = "pulled-" + UUID.randomUUID().toString().substring(0, 8);
        Signed.webhook(TestTenants.DEFAULT_SECRET, "{\"pulled\":true}").post("/webhook/" + id).then().statusCode(202);
    }
}
