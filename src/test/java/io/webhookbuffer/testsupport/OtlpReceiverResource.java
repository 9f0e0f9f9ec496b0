package io.webhookbuffer.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

/**
 * Starts an {@link OtlpReceiver} and points the app's trace exporter at it (OTLP over HTTP, protobuf: the build's
 * default), which turns tracing on (trace.TracingSwitch); spans are exported every 100 ms instead of every 5 s.
 */
public class OtlpReceiverResource implements QuarkusTestResourceLifecycleManager {

    private OtlpReceiver receiver;

    @Override
    public Map<String, String> start() {
        try {
            receiver = new OtlpReceiver();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        // No protocol: the build's own default (OTLP/HTTP, trace.TracingSwitch) is what these tests export with.
        return Map.of("quarkus.otel.exporter.otlp.traces.endpoint", receiver.endpoint(),
                "quarkus.otel.bsp.schedule.delay", "100ms");
    }

    @Override
    public void inject(TestInjector injector) {
        injector.injectIntoFields(receiver,
                new TestInjector.AnnotatedAndMatchesType(InjectOtlpReceiver.class, OtlpReceiver.class));
    }

    @Override
    public void stop() {
        receiver.close();
    }
}
