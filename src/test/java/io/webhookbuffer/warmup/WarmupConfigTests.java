package io.webhookbuffer.warmup;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.quarkus.runtime.configuration.DurationConverter;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;

/** The warm-up's two settings, checked at start (plain JUnit: the mapping alone, no application). */
class WarmupConfigTests {

    private static List<String> problemsWith(Map<String, String> values) {
        WarmupConfig config = new SmallRyeConfigBuilder().withMapping(WarmupConfig.class)
                .withConverter(Duration.class, 200, new DurationConverter())
                .withSources(new PropertiesConfigSource(values, "test", 500))
                .build().getConfigMapping(WarmupConfig.class);
        return Warmup.problems(config).problems();
    }

    /** A zero duration would end the rehearsal before its first request and leave the compiler no time. */
    @Test
    void theWarmupNeedsAPositiveDurationEvenWhenOff() {
        assertEquals(List.of("buffer.warmup.max-duration must be a positive duration, was PT0S"),
                problemsWith(Map.of("buffer.warmup.enabled", "false", "buffer.warmup.max-duration", "0s")));
        assertEquals(List.of(), problemsWith(Map.of()));
        assertEquals(List.of(), problemsWith(Map.of("buffer.warmup.max-duration", "2s")));
    }
}
