package io.webhookbuffer.local;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.eclipse.microprofile.config.spi.ConfigSource;

import io.smallrye.config.ConfigSourceContext;
import io.smallrye.config.ConfigSourceFactory;
import io.smallrye.config.ConfigValue;
import io.smallrye.config.PropertiesConfigSource;

/**
 * Supplies database and Redis addresses in local mode, when none is configured:
 * <ul>
 * <li>local profile ({@code mvn -B -Plocal package}, or {@code java -Dquarkus.profile=local -jar} the local build's
 * quarkus-run.jar; also dev): an embedded PostgreSQL whose data stays in {@code buffer.local.data-dir} between runs,
 * and an embedded Redis;</li>
 * <li>test profile: the local servers on 127.0.0.1:5432 / :6379 when they answer (as on CI), else embedded ones in
 * a throwaway folder;</li>
 * <li>local, dev and test profiles: when {@code buffer.secrets.keys} is not set, the key in
 * {@code {buffer.local.data-dir}/secrets.key}, made on first use ({@link LocalSecretsKey});</li>
 * <li>prod profile: nothing, ever. Without {@code quarkus.datasource.reactive.url} the service refuses to start
 * (see {@code RequiredConfiguration}).</li>
 * </ul>
 * Configured values (application.properties, env, system properties) always win: this source has a low ordinal.
 */
public class LocalServersConfigSourceFactory implements ConfigSourceFactory {

    static final int ORDINAL = 200;
    static final String DATABASE = "webhook_buffer";
    /** Where local mode keeps what it makes for itself: the embedded PostgreSQL's data, the secrets key file. */
    public static final String DATA_DIR = ".webhook-buffer-data";
    /**
     * The half of the application tests this JVM runs (system property {@code buffer.test.half}, set by Surefire's
     * {@code app-halves} execution in {@code pom.xml}: 1, 2), or empty elsewhere. The halves run at once, so each has
     * its own database and its own Redis database (its number).
     */
    public static final String TEST_HALF = System.getProperty("buffer.test.half", "").strip();
    /**
     * The test database; {@code BUFFER_TEST_DATABASE} names another, so two checkouts can run their tests at once on
     * one PostgreSQL without sharing tables; a half adds {@code _half<n>} to it.
     */
    public static final String TEST_DATABASE = testDatabase() + (TEST_HALF.isEmpty() ? "" : "_half" + TEST_HALF);
    /** The tests' Redis database, as the path of a Redis URL: {@code /<half>} in a half, else empty (database 0). */
    public static final String TEST_REDIS_DATABASE = TEST_HALF.isEmpty() ? "" : "/" + TEST_HALF;

    @Override
    public Iterable<ConfigSource> getConfigSources(ConfigSourceContext context) {
        List<String> profiles = context.getProfiles();
        boolean test = profiles.contains("test");
        boolean dev = profiles.contains("local") || profiles.contains("dev");
        if (profiles.contains("prod") || !(test || dev) || isFalse(context.getValue("buffer.local.enabled"))) {
            return List.of();
        }
        Map<String, String> props = new HashMap<>();
        if (isUnset(context.getValue("quarkus.datasource.reactive.url"))) {
            Path dataDir = test ? null : Path.of(valueOr(context.getValue("buffer.local.data-dir"), DATA_DIR),
                    "postgres");
            LocalServers.Endpoint pg = LocalServers.postgres(test, dataDir, test ? TEST_DATABASE : DATABASE);
            String hostPortDb = pg.host() + ":" + pg.port() + "/" + pg.database();
            props.put("quarkus.datasource.reactive.url", "postgresql://" + hostPortDb);
            props.put("quarkus.datasource.jdbc.url", "jdbc:postgresql://" + hostPortDb);
            props.put("quarkus.datasource.username", pg.user());
        }
        if (isUnset(context.getValue("quarkus.redis.hosts"))) {
            LocalServers.Endpoint redis = LocalServers.redis(test);
            props.put("quarkus.redis.hosts", "redis://" + redis.host() + ":" + redis.port() + redisDatabase(test));
        }
        secretsKey(context, props);
        return List.of(new PropertiesConfigSource(props, "webhook-buffer local servers", ORDINAL));
    }

    /** The tests' too: the key file stays in the checkout, as the test database it opens stays on PostgreSQL. */
    private static void secretsKey(ConfigSourceContext context, Map<String, String> props) {
        if (isUnset(context.getValue("buffer.secrets.keys"))) {
            Path dataDir = Path.of(valueOr(context.getValue("buffer.local.data-dir"), DATA_DIR));
            props.put("buffer.secrets.keys", LocalSecretsKey.loadOrCreate(dataDir.resolve(LocalSecretsKey.FILE_NAME)));
        }
    }

    /** A half of the tests has its own Redis database; local mode and the other tests use database 0. */
    private static String redisDatabase(boolean test) {
        return test ? TEST_REDIS_DATABASE : "";
    }

    private static String testDatabase() {
        String named = System.getenv("BUFFER_TEST_DATABASE");
        return named == null || named.isBlank() ? "webhook_buffer_test" : named.strip();
    }

    private static boolean isUnset(ConfigValue value) {
        return value == null || value.getValue() == null || value.getValue().isBlank();
    }

    private static boolean isFalse(ConfigValue value) {
        return !isUnset(value) && "false".equalsIgnoreCase(value.getValue().strip());
    }

    private static String valueOr(ConfigValue value, String fallback) {
        return isUnset(value) ? fallback : value.getValue();
    }
}
