package io.webhookbuffer.delivery;

import static io.webhookbuffer.testsupport.TestTenants.tenant;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.webhookbuffer.metrics.MetricsProfile;
import io.webhookbuffer.testsupport.FakeOrigin;
import io.webhookbuffer.testsupport.FakeOrigin.Answer;
import io.webhookbuffer.testsupport.InjectFakeOrigin;
import io.webhookbuffer.testsupport.Signed;
import io.webhookbuffer.testsupport.TestTenants;

/**
 * A dead origin is probed, not hammered: after enough failures its breaker opens and traffic stops for the delay. The
 * application is {@link MetricsProfile}'s (a breaker that opens after 4 requests, a delay of 1.5 s, no linger); the
 * origin recovers at the end, so the breaker, which every tenant of the fake origin shares, is closed again for the
 * tests that follow.
 */
@QuarkusTest
@TestProfile(MetricsProfile.class)
class CircuitBreakerTests {

    static final long BREAKER_DELAY_MILLIS = MetricsProfile.BREAKER_DELAY_MILLIS;

    @InjectFakeOrigin
    FakeOrigin origin;

    @Test
    void openBreakerStopsTrafficToTheOriginForItsDelayThenProbes() {
        String t = tenant().provision();
        origin.answer(t, batch -> Answer.status(500));
        Signed.webhook(TestTenants.DEFAULT_SECRET, "{}").header("X-Event-ID", "cb-1").post("/webhook/" + t)
                .then().statusCode(202);
        // Backoff alone would retry every 25-400 ms; the open breaker holds traffic for 1.5 s between probes.
        await().atMost(Duration.ofSeconds(15)).until(() -> origin.batches(t).size() >= 6);
        List<FakeOrigin.Batch> batches = origin.batches(t);
        long longestGap = 0;
        for (int i = 1; i < batches.size(); i++) {
            longestGap = Math.max(longestGap, batches.get(i).receivedAtMillis() - batches.get(i - 1).receivedAtMillis());
        }
        assertTrue(longestGap >= BREAKER_DELAY_MILLIS - 100, "the breaker held traffic back: longest gap " + longestGap);
        assertTrue(batches.size() < 20, "not hammered: " + batches.size() + " requests");

        AtomicBoolean recovered = new AtomicBoolean();
        origin.answer(t, batch -> {
            recovered.set(true);
            return Answer.ok();
        });
        await().atMost(Duration.ofSeconds(15)).untilTrue(recovered); // the probe succeeds: the breaker closes
    }
}
