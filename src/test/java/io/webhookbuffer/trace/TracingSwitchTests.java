package io.webhookbuffer.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;

/**
 * Tracing is off unless an OTLP endpoint is configured; an explicit quarkus.otel.sdk.disabled wins; spans go over
 * OTLP/HTTP.
 */
class TracingSwitchTests {

    @Test
    void offWithoutAnEndpointEvenWithTheExtensionsDefaults() {
        assertEquals(true, disabled(Map.of()));
    }

    @Test
    void onWithAnEndpoint() {
        assertEquals(false, disabled(Map.of("quarkus.otel.exporter.otlp.traces.endpoint", "http://collector:4317")));
        assertEquals(false, disabled(Map.of("quarkus.otel.exporter.otlp.endpoint", "http://collector:4317")));
    }

    @Test
    void anExplicitSettingWins() {
        assertEquals(true, disabled(Map.of("quarkus.otel.exporter.otlp.traces.endpoint", "http://collector:4317",
                "quarkus.otel.sdk.disabled", "true")));
        assertEquals(false, disabled(Map.of("quarkus.otel.sdk.disabled", "false")));
    }

    /** Spans go over OTLP/HTTP: the default, whatever the extension's; gRPC (its libraries left out) refused. */
    @Test
    void theProtocolIsHttpAndGrpcIsRefusedByName() {
        assertEquals("http/protobuf", config(Map.of()).getValue(TracingSwitch.PROTOCOL, String.class));
        assertEquals("http/protobuf", config(Map.of(TracingSwitch.ANY_PROTOCOL, "http/protobuf"))
                .getValue(TracingSwitch.PROTOCOL, String.class));
        for (String key : List.of(TracingSwitch.PROTOCOL, TracingSwitch.ANY_PROTOCOL)) {
            SmallRyeConfig config = config(Map.of(key, "grpc"));
            IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                    () -> config.getValue(TracingSwitch.PROTOCOL, String.class));
            assertTrue(refused.getMessage().startsWith(key + " is 'grpc'"), refused.getMessage());
            assertTrue(refused.getMessage().contains("http/protobuf"), refused.getMessage());
        }
    }

    private static boolean disabled(Map<String, String> configured) {
        return config(configured).getValue("quarkus.otel.sdk.disabled", Boolean.class);
    }

    private static SmallRyeConfig config(Map<String, String> configured) {
        return new SmallRyeConfigBuilder()
                .withInterceptors(new TracingSwitch())
                // The extension's defaults, as its mappings give them: never "configured".
                .withDefaultValue("quarkus.otel.sdk.disabled", "false")
                .withDefaultValue("quarkus.otel.exporter.otlp.traces.endpoint", "http://localhost:4317/")
                .withDefaultValue("quarkus.otel.exporter.otlp.endpoint", "http://localhost:4317/")
                .withDefaultValue(TracingSwitch.PROTOCOL, "grpc")
                .withSources(new PropertiesConfigSource(configured, "test", 300))
                .build();
    }
}
