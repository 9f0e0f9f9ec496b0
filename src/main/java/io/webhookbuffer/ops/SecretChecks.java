package io.webhookbuffer.ops;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import io.webhookbuffer.common.ConfigCheck;
import io.webhookbuffer.common.OriginConfig;
import io.webhookbuffer.controlplane.ControlConfig;
import io.webhookbuffer.delivery.DeliveryConfig;
import io.webhookbuffer.status.StatusConfig;

/**
 * Refuses, outside local mode, secrets that do not protect anything: placeholders left from {@code k8s/}'s Secret
 * template, values this repository publishes for local mode, compose, the bench or the docs, and a control secret
 * shorter than HMAC-SHA256's key. Each problem names the setting, never its value. Pure.
 *
 * <p>Local mode (the {@code local} or {@code dev} profile without {@code prod}) is exempt: its demo secrets are the
 * point of a quick start on one machine. The test profile is not: tests run with secrets that pass.
 */
public final class SecretChecks {

    /** HMAC-SHA256's key is 32 bytes; a shorter control secret is below the MAC's strength. */
    public static final int MIN_CONTROL_SECRET_BYTES = 32;
    /**
     * A bearer token for the status page (checked in every profile, {@link StartupChecks#problems(StatusConfig)}): 32
     * hex characters carry 128 bits.
     */
    public static final int MIN_STATUS_TOKEN_CHARS = 32;

    /** How placeholders start (compared case-insensitively): {@code k8s/secret.template.yaml} uses the first. */
    static final List<String> PLACEHOLDER_PREFIXES = List.of("REPLACE_ME", "CHANGE_ME", "CHANGEME");

    /**
     * Every secret value this repository has published for a demo: local mode and dev mode (application.properties),
     * the demo origin and control plane in the README, compose (before it generated its secrets) and the bench
     * (before it did). {@code SecretChecksTests} checks that local mode's values are all here.
     */
    static final Set<String> DEMO_VALUES = Set.of(
            "local-demo-control-secret", "demo-origin-token", "demo-signing-secret",
            "compose-demo-control-secret", "compose-status-token", "buffer-demo-password",
            "bench-control-secret-0123456789", "bench-origin-token", "bench-signing-secret");

    private static final String GENERATE = "generate one with: openssl rand -hex 32";

    private SecretChecks() {
    }

    /** True in local mode: a {@code local} or {@code dev} profile, and no {@code prod} one. */
    public static boolean exempt(List<String> profiles) {
        return (profiles.contains("local") || profiles.contains("dev")) && !profiles.contains("prod");
    }

    /** The secret settings that are set (not blank), by key, in the order they are reported. */
    public static Map<String, String> secrets(ControlConfig control, OriginConfig origin, DeliveryConfig delivery,
            StatusConfig status, Optional<String> datasourceUsername, Optional<String> datasourcePassword,
            Optional<String> secretsKeys) {
        Map<String, String> set = new LinkedHashMap<>();
        put(set, "buffer.control.secret", control.secret());
        put(set, "buffer.control.previous-secret", control.previousSecret());
        put(set, "buffer.origin.token", origin.token());
        put(set, "buffer.delivery.signing-secret", delivery.signingSecret());
        put(set, "buffer.status.token", status.token());
        put(set, "quarkus.datasource.username", datasourceUsername);
        put(set, "quarkus.datasource.password", datasourcePassword);
        put(set, "buffer.secrets.keys", secretsKeys);
        return set;
    }

    /** One problem at most per setting: a placeholder, else a published demo value, else too short. */
    public static ConfigCheck problems(List<String> profiles, Map<String, String> secrets) {
        return problems(profiles, secrets, new ConfigCheck());
    }

    /** As {@link #problems(List, Map)}, added to {@code check} so they are reported with its problems. */
    public static ConfigCheck problems(List<String> profiles, Map<String, String> secrets, ConfigCheck check) {
        if (exempt(profiles)) {
            return check;
        }
        secrets.forEach((key, value) -> {
            String problem = problem(key, value.strip());
            check.require(problem == null, problem);
        });
        return check;
    }

    private static String problem(String key, String value) {
        String upper = value.toUpperCase(Locale.ROOT);
        if (PLACEHOLDER_PREFIXES.stream().anyMatch(upper::startsWith)) {
            return key + " is still a placeholder from a template: set a real secret (" + GENERATE + ")";
        }
        if (DEMO_VALUES.contains(value)) {
            return key + " is a demo value published in this repository (local mode, compose, the bench or the docs),"
                    + " known to anyone: " + GENERATE;
        }
        int bytes = value.getBytes(StandardCharsets.UTF_8).length;
        if (key.startsWith("buffer.control.") && bytes < MIN_CONTROL_SECRET_BYTES) {
            return key + " must be at least " + MIN_CONTROL_SECRET_BYTES + " bytes (" + GENERATE + "), was " + bytes
                    + " bytes";
        }
        return null;
    }

    private static void put(Map<String, String> set, String key, Optional<String> value) {
        value.filter(v -> !v.isBlank()).ifPresent(v -> set.put(key, v));
    }
}
