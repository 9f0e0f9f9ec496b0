package io.webhookbuffer.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.webhookbuffer.testsupport.ServiceProcess;

/**
 * Outside local mode there is no key of its own: the packaged service (prod profile) without
 * {@code buffer.secrets.keys} refuses to start, and says which setting to set and how to make a key.
 */
class SecretsKeyRequiredIT {

    @Test
    void withoutAKeyTheServiceRefusesToStartAndSaysWhy() throws Exception {
        String name = "secrets-key-required";
        try (ServiceProcess service = ServiceProcess.start(name, Map.of("BUFFER_SECRETS_KEYS", ""))) {
            // Seconds when the machine is idle; the bound is for a machine busy with other builds.
            assertTrue(service.process().waitFor(180, TimeUnit.SECONDS), "the service should stop by itself");
            assertTrue(service.process().exitValue() != 0, "a refusal exits non-zero");
        }
        String log = Files.readString(Path.of("target", name + ".log"), StandardCharsets.UTF_8);
        assertTrue(log.contains("buffer.secrets.keys is required outside local mode"), log);
        assertTrue(log.contains("openssl rand -base64 32"), "how to make one");
        assertEquals(false, log.contains("Listening on"), "it never served");
    }
}
