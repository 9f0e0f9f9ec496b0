package io.webhookbuffer.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.quarkus.runtime.configuration.DurationConverter;
import io.smallrye.config.EnvConfigSource;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import io.webhookbuffer.queue.QueueConfig;

/** A retired setting stops the start in every source, the environment included, and its value is never printed. */
class RetiredSettingsTests {

    private static SmallRyeConfigBuilder builder() {
        return new SmallRyeConfigBuilder().withMapping(QueueConfig.class)
                .withConverter(Duration.class, 200, new DurationConverter()); // Quarkus's "30d"
    }

    private static List<String> problems(SmallRyeConfig config) {
        return RetiredSettings.problems(key -> config.getOptionalValue(key, String.class).isPresent()).problems();
    }

    @Test
    void aRetiredKeyInTheEnvironmentIsNamedWithWhatReplacedIt() {
        SmallRyeConfig config = builder()
                .withSources(new EnvConfigSource(Map.of("BUFFER_QUEUE_MAX_BATCH_SIZE", "4096",
                        "BUFFER_ACTOR_IDLE_EVICTION", "20s"), 300))
                .build(); // SmallRye itself lets an unknown key from the environment by: the reason for the check
        List<String> problems = problems(config);
        assertEquals(2, problems.size(), problems.toString());
        assertTrue(problems.get(0).startsWith("buffer.actor.idle-eviction is no longer a setting (now a constant: 10"),
                problems.get(0));
        assertTrue(problems.get(1).startsWith("buffer.queue.max-batch-size is no longer a setting (now a constant: 512"),
                problems.get(1));
        assertFalse(String.join(" ", problems).contains("4096"), "the value is not printed");
        assertFalse(String.join(" ", problems).contains("20s"), "the value is not printed");
    }

    @Test
    void aRetiredKeyInAPropertiesFileIsRefusedByTheMappingAlready() {
        SmallRyeConfigBuilder builder = builder()
                .withSources(new PropertiesConfigSource(Map.of("buffer.queue.max-batch-size", "4096"), "file", 250));
        RuntimeException e = assertThrows(RuntimeException.class, builder::build);
        assertTrue(e.getMessage().contains("buffer.queue.max-batch-size") && e.getMessage().contains("does not map"),
                e.getMessage());
    }

    @Test
    void nothingRetiredSetIsNoProblem() {
        SmallRyeConfig config = builder()
                .withSources(new EnvConfigSource(Map.of("BUFFER_QUEUE_WRITE_TIMEOUT", "4s"), 300)).build();
        assertEquals(List.of(), problems(config));
    }
}
