package io.webhookbuffer.delivery;

import static io.webhookbuffer.testsupport.TestTenants.tenant;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.webhookbuffer.testsupport.FakeOrigin;
import io.webhookbuffer.testsupport.FakeOrigin.Answer;
import io.webhookbuffer.testsupport.InjectFakeOrigin;
import io.webhookbuffer.testsupport.Signed;
import io.webhookbuffer.testsupport.TestTenants;

/** A dead origin is probed, not hammered: after enough failures its breaker opens and traffic stops for the delay. */
@QuarkusTest
@TestProfile(CircuitBreakerTests.SmallBreaker.class)
class CircuitBreakerTests {

    static final long BREAKER_DELAY_MILLIS = 1500;

    public static class SmallBreaker extends DeliveryProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            Map<String, String> config = new HashMap<>(super.getConfigOverrides());
            config.put("buffer.delivery.circuit-breaker.request-volume", "4");
            config.put("buffer.delivery.circuit-breaker.delay", BREAKER_DELAY_MILLIS + "ms");
            config.put("buffer.delivery.max-attempts", "1000");
            config.put("buffer.delivery.linger", "0ms");
            return config;
        }
    }

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
    }
}
