package io.webhookbuffer.tenant;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.webhookbuffer.testsupport.Signed;
import io.webhookbuffer.testsupport.TestTenants;
import io.webhookbuffer.warmup.Warmup;

/**
 * With origin pull-through on, the start-up warm-up's refusal rehearsal finds its made-up unknown tenants unknown as
 * a flood's would be, and never asks the origin about them: a replica's start costs the customer's origin
 * nothing. Against a real origin ({@link SlowTenantOrigin}) that keeps every id it is asked about.
 */
@QuarkusTest
@TestProfile(OriginPullSkipsRehearsalTests.RehearsingWithPull.class)
@QuarkusTestResource(value = SlowTenantOrigin.class, restrictToAnnotatedClass = true)
class OriginPullSkipsRehearsalTests {

    static final int REFUSALS = 300;

    public static class RehearsingWithPull implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("buffer.warmup.enabled", "true", "buffer.warmup.requests", "100",
                    "buffer.warmup.refusals", Integer.toString(REFUSALS), "buffer.warmup.connections", "4",
                    "buffer.warmup.max-duration", "60s");
        }
    }

    @Inject
    Warmup warmup;
    @Inject
    RehearsalTenant rehearsal;

    @Test
    void theRehearsalsUnknownTenantsAreNeverAskedOfTheOrigin() {
        await().atMost(Duration.ofSeconds(60)).until(warmup::done);

        List<String> asked = SlowTenantOrigin.IDS.stream().filter(rehearsal::owns).toList();
        assertEquals(List.of(), asked, "ids of the rehearsal the origin was asked about");
        // ... and not because there were none: a third of the refusals are unknown tenants, each looked up, 404.
        Map<String, Long> outcomes = warmup.refused().outcomes();
        assertTrue(outcomes.getOrDefault("404", 0L) >= REFUSALS / 6, "unknown tenants were rehearsed: " + outcomes);
    }

    @Test
    void aGenuineUnknownTenantIsStillPulledFromTheOrigin() {
        await().atMost(Duration.ofSeconds(60)).until(warmup::done);
        String id = "pulled-" + UUID.randomUUID().toString().substring(0, 8);

        Signed.webhook(TestTenants.DEFAULT_SECRET, "{\"pulled\":true}").post("/webhook/" + id).then().statusCode(202);

        assertTrue(SlowTenantOrigin.IDS.contains(id), "the origin was asked about " + id);
    }
}
