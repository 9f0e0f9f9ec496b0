package io.webhookbuffer.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.webhookbuffer.local.LocalServers;
import io.webhookbuffer.local.LocalServersConfigSourceFactory;

/** Routes the app's Redis connections through a {@link TcpProxy} the test can cut ({@link InjectRedisProxy}). */
public class RedisProxyResource implements QuarkusTestResourceLifecycleManager {

    private TcpProxy proxy;

    @Override
    public Map<String, String> start() {
        LocalServers.Endpoint redis = LocalServers.redis(true);
        try {
            proxy = new TcpProxy(redis.host(), redis.port());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Map.of("quarkus.redis.hosts", "redis://127.0.0.1:" + proxy.port()
                + LocalServersConfigSourceFactory.TEST_REDIS_DATABASE);
    }

    @Override
    public void inject(TestInjector injector) {
        injector.injectIntoFields(proxy, new TestInjector.AnnotatedAndMatchesType(InjectRedisProxy.class, TcpProxy.class));
    }

    @Override
    public void stop() {
        try {
            proxy.close();
        } catch (IOException ignored) {
            // the JVM is ending the test run
        }
    }
}
