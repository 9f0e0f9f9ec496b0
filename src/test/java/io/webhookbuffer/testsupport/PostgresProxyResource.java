package io.webhookbuffer.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.webhookbuffer.local.LocalServers;
import io.webhookbuffer.local.LocalServersConfigSourceFactory;

/**
 * Routes the app's reactive connections through a {@link TcpProxy} to the real PostgreSQL (Flyway keeps its direct
 * JDBC URL), and hands the proxy to the test's {@link InjectProxy} field.
 */
public class PostgresProxyResource implements QuarkusTestResourceLifecycleManager {

    private TcpProxy proxy;

    @Override
    public Map<String, String> start() {
        LocalServers.Endpoint pg = LocalServers.postgres(true, null, LocalServersConfigSourceFactory.TEST_DATABASE);
        try {
            proxy = new TcpProxy(pg.host(), pg.port());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String direct = pg.host() + ":" + pg.port() + "/" + pg.database();
        return Map.of(
                "quarkus.datasource.reactive.url", "postgresql://127.0.0.1:" + proxy.port() + "/" + pg.database(),
                "quarkus.datasource.jdbc.url", "jdbc:postgresql://" + direct,
                "quarkus.datasource.username", pg.user());
    }

    @Override
    public void inject(TestInjector injector) {
        injector.injectIntoFields(proxy, new TestInjector.AnnotatedAndMatchesType(InjectProxy.class, TcpProxy.class));
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
