package io.webhookbuffer.trace;

import java.util.List;

import io.smallrye.config.ConfigSourceInterceptor;
import io.smallrye.config.ConfigSourceInterceptorContext;
import io.smallrye.config.ConfigValue;

/**
 * Tracing's defaults in this build. Tracing is off unless an OTLP endpoint is configured: when nothing sets {@code
 * quarkus.otel.sdk.disabled}, this answers {@code false} if {@code quarkus.otel.exporter.otlp.traces.endpoint} or
 * {@code quarkus.otel.exporter.otlp.endpoint} is set, {@code true} otherwise (Quarkus's own default would turn the SDK
 * on and export to localhost:4317 from every replica). A value set for {@code quarkus.otel.sdk.disabled} anywhere
 * (properties, environment, system property) wins. Only the extensions' defaults count as unset.
 *
 * <p>Spans are exported over OTLP/HTTP ({@code http/protobuf}, with Vert.x's HTTP client): the build leaves out the
 * gRPC sender's libraries (pom.xml). So {@code quarkus.otel.exporter.otlp.traces.protocol} (or {@code
 * quarkus.otel.exporter.otlp.protocol}) defaults to {@code http/protobuf}, and {@code grpc} set there is refused at
 * start with a message naming the key, not met later as a missing class.
 */
public class TracingSwitch implements ConfigSourceInterceptor {

    static final String DISABLED = "quarkus.otel.sdk.disabled";
    static final List<String> ENDPOINTS = List.of("quarkus.otel.exporter.otlp.traces.endpoint",
            "quarkus.otel.exporter.otlp.endpoint");
    static final String PROTOCOL = "quarkus.otel.exporter.otlp.traces.protocol";
    static final String ANY_PROTOCOL = "quarkus.otel.exporter.otlp.protocol";
    static final String HTTP = "http/protobuf";
    private static final String SOURCE = "webhook-buffer tracing defaults (docs/operations.md \"Tracing\")";
    private static final long serialVersionUID = 1L;

    @Override
    public ConfigValue getValue(ConfigSourceInterceptorContext context, String name) {
        ConfigValue value = context.proceed(name);
        if (PROTOCOL.equals(name) || ANY_PROTOCOL.equals(name)) {
            return protocol(context, name, value);
        }
        if (!DISABLED.equals(name) || isSet(value)) {
            return value;
        }
        boolean configured = false;
        for (String endpoint : ENDPOINTS) {
            configured |= isSet(context.proceed(endpoint));
        }
        return ConfigValue.builder().withName(name).withValue(Boolean.toString(!configured))
                .withConfigSourceName(SOURCE).build();
    }

    /** The protocol set (for traces, else for every signal), or {@code http/protobuf}; {@code grpc} is refused. */
    private static ConfigValue protocol(ConfigSourceInterceptorContext context, String name, ConfigValue value) {
        ConfigValue set = isSet(value) ? value : PROTOCOL.equals(name) ? context.proceed(ANY_PROTOCOL) : null;
        if (isSet(set) && !HTTP.equals(set.getValue().strip())) {
            throw new IllegalArgumentException(set.getName() + " is '" + set.getValue() + "' (from "
                    + set.getConfigSourceName() + "), but this build exports spans over OTLP/HTTP only: set it to "
                    + HTTP + " (or leave it unset) and point the endpoint at the collector's OTLP/HTTP port (4318)");
        }
        return set == value ? value
                : ConfigValue.builder().withName(name).withValue(HTTP).withConfigSourceName(SOURCE).build();
    }

    /** Set by a source of configuration, not by a mapping's default (whose source has the lowest ordinal). */
    private static boolean isSet(ConfigValue value) {
        return value != null && value.getValue() != null && !value.getValue().isBlank()
                && value.getConfigSourceOrdinal() > Integer.MIN_VALUE;
    }
}
