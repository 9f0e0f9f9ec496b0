package io.webhookbuffer.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.webhookbuffer.demo.DemoControlPlane;

/** Starts the real {@link DemoControlPlane} on a free port and points {@code buffer.control.url} at it. */
public class ControlPlaneResource implements QuarkusTestResourceLifecycleManager {

    private DemoControlPlane plane;

    @Override
    public Map<String, String> start() {
        try {
            plane = new DemoControlPlane(0, Signed.CONTROL_SECRET);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Map.of("buffer.control.url", plane.baseUrl());
    }

    @Override
    public void inject(TestInjector injector) {
        injector.injectIntoFields(plane,
                new TestInjector.AnnotatedAndMatchesType(InjectControlPlane.class, DemoControlPlane.class));
    }

    @Override
    public void stop() {
        plane.close();
    }
}
