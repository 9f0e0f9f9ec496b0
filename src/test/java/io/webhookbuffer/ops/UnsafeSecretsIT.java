package io.webhookbuffer.ops;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.webhookbuffer.testsupport.ServiceProcess;

/**
 * The packaged service in the prod profile refuses to start with unsafe secrets: a placeholder from the Secret
 * template, a published demo value, a control secret under 32 bytes, a status token under 32 characters. The
 * start-up error names each setting and never prints a value.
 */
class UnsafeSecretsIT {

    @Test
    void theServiceRefusesToStartNamingEachUnsafeSetting() throws Exception {
        Map<String, String> unsafe = Map.of(
                "BUFFER_CONTROL_SECRET", "REPLACE_ME_32_RANDOM_BYTES",
                "BUFFER_CONTROL_PREVIOUS_SECRET", "previous-secret-of-31-bytes-xyz",
                "BUFFER_ORIGIN_TOKEN", "demo-origin-token",
                "BUFFER_STATUS_TOKEN", "status-token-of-24-chars");
        ServiceProcess service = ServiceProcess.start("unsafe-secrets", unsafe);
        try {
            assertTrue(service.process().waitFor(60, TimeUnit.SECONDS), "the service stops by itself");
            assertNotEquals(0, service.process().exitValue());
        } finally {
            service.close();
        }
        String log = Files.readString(Path.of("target/unsafe-secrets.log"), StandardCharsets.UTF_8);
        for (String problem : new String[] { "buffer.control.secret is still a placeholder",
                "buffer.control.previous-secret must be at least 32 bytes", "buffer.origin.token is a demo value",
                "buffer.status.token (length) must be between 32 and 4096, was 24" }) {
            assertTrue(log.contains(problem), "the start-up error says: " + problem + "\n" + log);
        }
        for (String value : unsafe.values()) {
            assertFalse(log.contains(value), "a secret's value is never printed: " + value);
        }
    }
}
