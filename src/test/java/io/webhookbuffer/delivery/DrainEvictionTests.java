package io.webhookbuffer.delivery;

import static io.webhookbuffer.testsupport.TestTenants.tenant;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.webhookbuffer.testsupport.Events;
import io.webhookbuffer.testsupport.FakeOrigin;
import io.webhookbuffer.testsupport.InjectFakeOrigin;

/**
 * A tenant's drain is dropped from the drainer's map once it has been idle longer than the backoff cap (the profile's
 * is 400 ms), so the map does not keep an entry per tenant forever; the tenant's next event starts a fresh drain.
 */
@QuarkusTest
@TestProfile(DeliveryProfile.class)
class DrainEvictionTests {

    @InjectFakeOrigin
    FakeOrigin origin;

    @Inject
    Drainer drainer;

    @Test
    void anIdleDrainIsDroppedAndTheNextEventStartsAFreshOne() {
        String t = tenant().provision();
        Events.accept(t, "before");
        await().atMost(Duration.ofSeconds(20)).until(() -> origin.providerIds(t).contains("before"));

        await().atMost(Duration.ofSeconds(20)).until(() -> drainer.view(t) == null);

        Events.accept(t, "after");
        await().atMost(Duration.ofSeconds(20)).until(() -> origin.providerIds(t).contains("after"));
        assertEquals(List.of("before", "after"), origin.providerIds(t));
    }
}
