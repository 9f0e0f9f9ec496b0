package io.webhookbuffer.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import io.quarkus.runtime.configuration.DurationConverter;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import io.webhookbuffer.actor.ActorConfig;
import io.webhookbuffer.common.ConfigCheck;
import io.webhookbuffer.controlplane.ControlConfig;
import io.webhookbuffer.controlplane.LifecycleConfig;
import io.webhookbuffer.delivery.DeliveryConfig;
import io.webhookbuffer.ingress.IngressConfig;
import io.webhookbuffer.queue.DedupeConfig;
import io.webhookbuffer.queue.QueueConfig;
import io.webhookbuffer.status.StatusConfig;
import io.webhookbuffer.tenant.TenantConfig;
import io.webhookbuffer.usage.UsageConfig;

/** The start-up bounds check, over the real config mappings built by SmallRye Config (no Quarkus). */
class StartupChecksTests {

    private static final long CEILING = 25L * 1024 * 1024;

    private static List<String> problemsWith(Map<String, String> values) {
        SmallRyeConfig config = new SmallRyeConfigBuilder()
                .withMapping(IngressConfig.class).withMapping(QueueConfig.class).withMapping(ActorConfig.class)
                .withMapping(TenantConfig.class).withMapping(DedupeConfig.class).withMapping(ControlConfig.class)
                .withMapping(DeliveryConfig.class).withMapping(UsageConfig.class).withMapping(LifecycleConfig.class)
                .withConverter(Duration.class, 200, new DurationConverter()) // Quarkus's "5m", "4d" forms
                .withSources(new PropertiesConfigSource(values, "test", 500))
                .build();
        List<String> problems = new ArrayList<>(StartupChecks.problems(config.getConfigMapping(IngressConfig.class),
                config.getConfigMapping(QueueConfig.class), config.getConfigMapping(ActorConfig.class),
                config.getConfigMapping(TenantConfig.class), config.getConfigMapping(DedupeConfig.class), CEILING)
                .problems());
        problems.addAll(StartupChecks.problems(config.getConfigMapping(DeliveryConfig.class)).problems());
        problems.addAll(StartupChecks.problems(config.getConfigMapping(ControlConfig.class),
                config.getConfigMapping(UsageConfig.class), config.getConfigMapping(LifecycleConfig.class)).problems());
        return problems;
    }

    @Test
    void defaultsPass() {
        assertEquals(List.of(), problemsWith(Map.of()));
    }

    @Test
    void everyViolationIsReportedWithKeyBoundAndValue() {
        List<String> problems = problemsWith(Map.of(
                "buffer.queue.max-concurrent-commits", "0",
                "buffer.ingress.max-body-bytes", Long.toString(CEILING + 1),
                "buffer.queue.write-timeout", "0s",
                "buffer.dedupe.retention", "0s"));
        assertEquals(4, problems.size(), problems.toString());
        assertTrue(problems.contains("buffer.queue.max-concurrent-commits must be between 1 and 64, was 0"),
                problems.toString());
        assertTrue(problems.stream().anyMatch(p -> p.startsWith("buffer.ingress.max-body-bytes must be between 1 and "
                + CEILING + ", was " + (CEILING + 1))), problems.toString());
        assertTrue(problems.stream().anyMatch(p -> p.startsWith("buffer.queue.write-timeout must be a positive")));
        assertTrue(problems.stream().anyMatch(p -> p.startsWith("buffer.dedupe.retention must be a positive")));
    }

    @Test
    void theInFlightBudgetMustHoldTheLargestBody() {
        List<String> problems = problemsWith(Map.of("buffer.ingress.max-in-flight-bytes", Long.toString(2 * CEILING - 1),
                "buffer.ingress.body-timeout", "0s", "buffer.ingress.max-body-bytes", "0"));
        assertEquals(3, problems.size(), problems.toString());
        assertTrue(problems.stream().anyMatch(p -> p.startsWith("buffer.ingress.max-in-flight-bytes must be at least"
                + " twice quarkus.http.limits.max-body-size (" + 2 * CEILING) && p.endsWith("was " + (2 * CEILING - 1))),
                problems.toString());
        assertTrue(problems.stream().anyMatch(p -> p.startsWith("buffer.ingress.body-timeout must be a positive")));
        assertTrue(problems.contains("buffer.ingress.max-body-bytes must be between 1 and " + CEILING + ", was 0"));
    }

    @Test
    void http2IsRefused() {
        assertEquals(1, StartupChecks.http2Problems(true).problems().size());
        assertEquals(List.of(), StartupChecks.http2Problems(false).problems());
    }

    @Test
    void deliveryBoundsAreChecked() {
        List<String> problems = problemsWith(Map.of("buffer.delivery.backoff-cap", "1s",
                "buffer.delivery.backoff-base", "2s", "buffer.delivery.batch-size", "0"));
        assertEquals(2, problems.size(), problems.toString());
        assertTrue(problems.contains("buffer.delivery.batch-size must be between 1 and 1000, was 0"), problems.toString());
        assertTrue(problems.stream().anyMatch(p -> p.startsWith("buffer.delivery.backoff-cap must be at least PT2S")));
    }

    @Test
    void controlPlaneSeamBoundsAreChecked() {
        List<String> problems = problemsWith(Map.of("buffer.usage.interval", "30s", "buffer.lifecycle.backlog-threshold", "0",
                "buffer.control.url", "ftp://example.com"));
        assertEquals(3, problems.size(), problems.toString());
        assertTrue(problems.stream().anyMatch(p -> p.startsWith("buffer.usage.interval must be at least PT1M")));
        assertTrue(problems.contains("buffer.lifecycle.backlog-threshold must be between 1 and " + Long.MAX_VALUE
                + ", was 0"), problems.toString());
        assertTrue(problems.contains("buffer.control.url must be an absolute http(s) URL without query or fragment, "
                + "was ftp://example.com"), problems.toString());
    }

    @Test
    void pushSignatureVersionIsOneOrTwo() {
        assertEquals(List.of("buffer.control.push-signature-version must be between 1 and 2, was 3"),
                problemsWith(Map.of("buffer.control.push-signature-version", "3")));
        assertEquals(List.of(), problemsWith(Map.of("buffer.control.push-signature-version", "2")));
    }

    @Test
    void throwIfAnyNamesEveryProblem() {
        ConfigCheck check = new ConfigCheck().range("a.b", 5, 1, 3).range("c.d", 0, 1, 3);
        IllegalStateException e = assertThrows(IllegalStateException.class, check::throwIfAny);
        assertTrue(e.getMessage().contains("a.b must be between 1 and 3, was 5"));
        assertTrue(e.getMessage().contains("c.d must be between 1 and 3, was 0"));
    }

    @Test
    void aShortStatusTokenIsRefusedWithoutPrintingIt() {
        List<String> problems = StartupChecks.problems(status("short-token")).problems();
        assertEquals(List.of("buffer.status.token (length) must be between 32 and 4096, was 11"), problems);
        assertEquals(List.of("buffer.status.token (length) must be between 32 and 4096, was 31"),
                StartupChecks.problems(status("x".repeat(31))).problems(), "16 was the old minimum");
        assertTrue(StartupChecks.problems(status("a-long-enough-status-token-0123456")).problems().isEmpty());
        assertTrue(StartupChecks.problems(status(null)).problems().isEmpty(), "no token: the page is off, not an error");
    }

    private static StatusConfig status(String token) {
        return new StatusConfig() {
            @Override
            public Optional<String> token() {
                return Optional.ofNullable(token);
            }

            @Override
            public boolean secureCookie() {
                return true;
            }
        };
    }
}
