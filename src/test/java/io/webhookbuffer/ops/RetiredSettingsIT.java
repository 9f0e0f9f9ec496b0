package io.webhookbuffer.ops;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.webhookbuffer.testsupport.ServiceProcess;

/**
 * The packaged service, started with a retired key in its environment (how the image, compose and k8s/ set
 * everything): it refuses to start and names the key and what replaced it, never the value. Beside it, the reason the
 * check exists: a key no mapping has, set the same way, is let by and the service starts.
 */
class RetiredSettingsIT {

    @Test
    void aRetiredKeyInTheEnvironmentStopsTheStartAndAnUnknownOneIsLetBy() throws Exception {
        try (ServiceProcess retired = ServiceProcess.start("retired-key",
                ServiceProcess.shortWarmup(Map.of("BUFFER_QUEUE_MAX_BATCH_SIZE", "4097")))) {
            assertTrue(retired.process().waitFor(180, TimeUnit.SECONDS), "the service stopped by itself");
            String log = Files.readString(Path.of("target/retired-key.log"), StandardCharsets.UTF_8);
            assertTrue(log.contains("buffer.queue.max-batch-size is no longer a setting (now a constant: 512"), log);
            assertFalse(log.contains("4097"), "the value is not printed");
        }
        try (ServiceProcess unknown = ServiceProcess.start("unknown-key",
                ServiceProcess.shortWarmup(Map.of("BUFFER_QUEUE_NO_SUCH_SETTING", "4097")))) {
            unknown.awaitReady(); // SmallRye lets an unknown key from the environment by, unread
        }
    }
}
