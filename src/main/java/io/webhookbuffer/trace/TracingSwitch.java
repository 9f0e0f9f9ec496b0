package io.webhookbuffer.trace;

import java.util.List;

import io.smallrye.config.ConfigSourceInterceptor;
import io.smallrye.config.ConfigSourceInterceptorContext;
import io.smallrye.config.ConfigValue;

/**
 * Tracing is off unless an OTLP endpoint is configured: when nothing sets {@code quarkus.otel.sdk.disabled}, this
 * answers {@code false} if {@code quarkus.otel.exporter.otlp.traces.endpoint} or
 * {@code quarkus.otel.exporter.otlp.endpoint} is set, {@code true} otherwise (Quarkus's own default would turn the SDK
 * on and export to localhost:4317 from every replica). A value set for {@code quarkus.otel.sdk.disabled} anywhere
 * (properties, environment, system property) wins. Only the extensions' defaults count as unset.
 */
public class TracingSwitch implements ConfigSourceInterceptor {

    static final String DISABLED = "quarkus.otel.sdk.disabled";
    static final List<String> ENDPOINTS = List.of("quarkus.otel.exporter.otlp.traces.endpoint",
            "quarkus.otel.exporter.otlp.endpoint");
    private static final long serialVersionUID = 1L;

    @Override
    public ConfigValue getValue(ConfigSourceInterceptorContext context, String name) {
        ConfigValue value = context.proceed(name);
        if (!DISABLED.equals(name) || isSet(value)) {
            return value;
        }
        boolean configured = false;
        for (String endpoint : ENDPOINTS) {
            configured |= isSet(context.proceed(endpoint));
        }
        return ConfigValue.builder().withName(name).withValue(Boolean.toString(!configured))
                .withConfigSourceName("webhook-buffer tracing switch (docs/operations.md \"Tracing\")").build();
    }

    /** Set by a source of configuration, not by a mapping's default (whose source has the lowest ordinal). */
    private static boolean isSet(ConfigValue value) {
        return value != null && value.getValue() != null && !value.getValue().isBlank()
                && value.getConfigSourceOrdinal() > Integer.MIN_VALUE;
    }
}
