package io.webhookbuffer.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;

/** Which paths the management port answers (the first segment of the normalized path), and the setting's bounds. */
class ManagementPathsTests {

    @Test
    void managementPathsAreThoseWhoseFirstSegmentIsQControlOrStatus() {
        for (String path : List.of("/q", "/q/", "/q/metrics", "//q/health", "/control", "/control/tenants/a",
                "/status", "/status/sign-in", "/status;a=b", "/q;x=1/health")) {
            assertTrue(ManagementPort.isManagementPath(path), path);
        }
        for (String path : List.of("/", "", "/webhook/a", "/qq", "/quit", "/controls", "/statuses", "/Status",
                "/webhook/q", "/webhook/status")) {
            assertFalse(ManagementPort.isManagementPath(path), path);
        }
        assertFalse(ManagementPort.isManagementPath(null));
    }

    @Test
    void theManagementPortMustBeAPortOtherThanTheWebhookPort() {
        assertEquals(List.of(), ManagementPort.problems(config(null, "0.0.0.0"), 8080).problems(), "unset: one port");
        assertEquals(List.of(), ManagementPort.problems(config(8081, "0.0.0.0"), 8080).problems());
        assertEquals(List.of(), ManagementPort.problems(config(0, "127.0.0.1"), 8080).problems(), "0: a free port");
        assertEquals(List.of(), ManagementPort.problems(config(0, "127.0.0.1"), 0).problems(), "both free ports");
        assertEquals(List.of("buffer.management.port must differ from buffer.ingress.port, was 8080"),
                ManagementPort.problems(config(8080, "0.0.0.0"), 8080).problems());
        assertEquals(List.of("buffer.management.port must be between 0 and 65535, was 70000"),
                ManagementPort.problems(config(70_000, "0.0.0.0"), 8080).problems());
        assertEquals(List.of("buffer.management.host must not be blank"),
                ManagementPort.problems(config(8081, " "), 8080).problems());
    }

    private static ManagementConfig config(Integer port, String host) {
        return new ManagementConfig() {
            @Override
            public Optional<Integer> port() {
                return Optional.ofNullable(port);
            }

            @Override
            public String host() {
                return host;
            }
        };
    }
}
