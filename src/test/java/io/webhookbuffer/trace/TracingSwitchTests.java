package io.webhookbuffer.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;

import org.junit.jupiter.api.Test;

import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;

/** Tracing is off unless an OTLP endpoint is configured; an explicit quarkus.otel.sdk.disabled wins. */
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

    private static boolean disabled(Map<String, String> configured) {
        SmallRyeConfig config = new SmallRyeConfigBuilder()
                .withInterceptors(new TracingSwitch())
                // The extension's defaults, as its mappings give them: never "configured".
                .withDefaultValue("quarkus.otel.sdk.disabled", "false")
                .withDefaultValue("quarkus.otel.exporter.otlp.traces.endpoint", "http://localhost:4317/")
                .withDefaultValue("quarkus.otel.exporter.otlp.endpoint", "http://localhost:4317/")
                .withSources(new PropertiesConfigSource(configured, "test", 300))
                .build();
        return config.getValue("quarkus.otel.sdk.disabled", Boolean.class);
    }
}
