package io.webhookbuffer.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

/** Starts a {@link FakeOrigin} and points {@code buffer.origin.base-url} at it. */
public class FakeOriginResource implements QuarkusTestResourceLifecycleManager {

    public static final String TOKEN = "test-origin-token";
    public static final String SIGNING_SECRET = "test-batch-signing-secret";
    private FakeOrigin origin;

    @Override
    public Map<String, String> start() {
        try {
            origin = new FakeOrigin();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Map.of("buffer.origin.base-url", origin.baseUrl(), "buffer.origin.token", TOKEN,
                "buffer.delivery.signing-secret", SIGNING_SECRET);
    }

    @Override
    public void inject(TestInjector injector) {
        injector.injectIntoFields(origin, new TestInjector.AnnotatedAndMatchesType(InjectFakeOrigin.class, FakeOrigin.class));
    }

    @Override
    public void stop() {
        origin.close();
    }
}
