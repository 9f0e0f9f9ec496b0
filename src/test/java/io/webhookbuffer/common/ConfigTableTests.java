package io.webhookbuffer.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import io.webhookbuffer.actor.ActorConfig;
import io.webhookbuffer.bench.BenchConfig;
import io.webhookbuffer.controlplane.ControlConfig;
import io.webhookbuffer.controlplane.LifecycleConfig;
import io.webhookbuffer.delivery.DeliveryConfig;
import io.webhookbuffer.health.HealthConfig;
import io.webhookbuffer.metrics.MetricsConfig;
import io.webhookbuffer.ops.ManagementConfig;
import io.webhookbuffer.ops.RetiredSettings;
import io.webhookbuffer.status.StatusConfig;
import io.webhookbuffer.ingress.IngressConfig;
import io.webhookbuffer.ratelimit.shared.RateLimitConfig;
import io.webhookbuffer.queue.DedupeConfig;
import io.webhookbuffer.queue.QueueConfig;
import io.webhookbuffer.tenant.TenantConfig;
import io.webhookbuffer.usage.UsageConfig;
import io.webhookbuffer.warmup.WarmupConfig;
import io.webhookbuffer.secrets.SecretsConfig;

/**
 * The configuration tables (docs/configuration.md: the operators' table, "Advanced tuning" and "Tools", read as one)
 * and the {@code @ConfigMapping} interfaces say the same thing: every key in one is in the other, once, with the same
 * default and the env var Quarkus derives from it.
 */
class ConfigTableTests {

    private static final Path TABLE = Path.of("docs/configuration.md");
    private static final Class<?>[] MAPPINGS = { IngressConfig.class, TenantConfig.class, OriginConfig.class,
            ActorConfig.class, QueueConfig.class, DedupeConfig.class, ControlConfig.class, DeliveryConfig.class,
            UsageConfig.class, LifecycleConfig.class, MetricsConfig.class, HealthConfig.class, StatusConfig.class,
            ManagementConfig.class,
            BenchConfig.class, WarmupConfig.class, SecretsConfig.class,
            RateLimitConfig.class };
    /** Keys read by the local-mode config source rather than a mapping. */
    private static final Map<String, String> LOCAL_KEYS = Map.of("buffer.local.enabled", "true",
            "buffer.local.data-dir", ".webhook-buffer-data");
    private static final Pattern ROW = Pattern.compile("^\\| `(buffer\\.[a-z0-9.-]+)` \\| `([A-Z0-9_]+)` \\| ([^|]+) \\|",
            Pattern.MULTILINE);

    @Test
    void configurationTableMatchesTheConfigMappings() throws IOException {
        Map<String, String> expected = new TreeMap<>(LOCAL_KEYS);
        for (Class<?> mapping : MAPPINGS) {
            collect(mapping.getAnnotation(ConfigMapping.class).prefix(), mapping, expected);
        }
        String table = Files.readString(TABLE, StandardCharsets.UTF_8);
        Map<String, String> documented = new TreeMap<>();
        Matcher m = ROW.matcher(table);
        while (m.find()) {
            String key = m.group(1);
            assertEquals(key.toUpperCase().replace('.', '_').replace('-', '_'), m.group(2), "env var of " + key);
            assertTrue(documented.put(key, m.group(3).strip()) == null, key + " is listed twice in " + TABLE);
        }
        assertEquals(expected.keySet(), documented.keySet(), TABLE + " vs @ConfigMapping keys");
        RetiredSettings.keys().forEach(key -> assertFalse(expected.containsKey(key),
                key + " is a key again: take it out of ops.RetiredSettings, or every start with it set is refused"));
        RetiredSettings.keys().forEach(key -> assertTrue(table.contains("`" + key + "`"),
                key + " is retired (ops.RetiredSettings) but " + TABLE + " does not say so"));
        expected.forEach((key, defaultValue) -> {
            if (defaultValue != null) {
                assertTrue(documented.get(key).startsWith("`" + defaultValue + "`"),
                        key + ": " + TABLE + " says " + documented.get(key) + ", the mapping's default is " + defaultValue);
            }
        });
    }

    private static void collect(String prefix, Class<?> type, Map<String, String> out) {
        for (Method method : type.getDeclaredMethods()) {
            if (method.getParameterCount() != 0 || method.isDefault() || Modifier.isStatic(method.getModifiers())) {
                continue;
            }
            String key = prefix + "." + kebab(method.getName());
            if (method.getReturnType().isInterface() && method.getReturnType().getEnclosingClass() == type) {
                collect(key, method.getReturnType(), out);
            } else {
                WithDefault d = method.getAnnotation(WithDefault.class);
                out.put(key, d == null ? null : d.value());
            }
        }
    }

    private static String kebab(String camel) {
        return camel.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase();
    }
}
