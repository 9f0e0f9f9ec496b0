package io.webhookbuffer.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The start-up refusal of placeholder, demo and short secrets outside local mode (pure, plus the repo's files). */
class SecretChecksTests {

    private static final List<String> PROD = List.of("prod");
    private static final String GOOD = "9f2c1d7e4b6a8f0e3c5d7b9a1e2f4c6d8b0a2e4f6c8d0b2a4e6f8c0d2b4a6e8f";
    private static final List<String> SECRET_KEYS = List.of("buffer.control.secret", "buffer.control.previous-secret",
            "buffer.origin.token", "buffer.delivery.signing-secret", "buffer.status.token",
            "quarkus.datasource.username", "quarkus.datasource.password", "buffer.secrets.keys");

    private static List<String> problems(List<String> profiles, String key, String value) {
        return SecretChecks.problems(profiles, Map.of(key, value)).problems();
    }

    @Test
    void realSecretsPass() {
        Map<String, String> all = new LinkedHashMap<>();
        SECRET_KEYS.forEach(k -> all.put(k, GOOD));
        assertEquals(List.of(), SecretChecks.problems(PROD, all).problems());
    }

    @ParameterizedTest
    @ValueSource(strings = { "REPLACE_ME", "REPLACE_ME_32_RANDOM_BYTES_0123456789abcdef", "replace_me_too",
            "CHANGE_ME-please-0123456789abcdef0123", "changeme0123456789abcdef0123456789", " REPLACE_ME " })
    void aPlaceholderIsRefusedInEverySettingNamingItButNotTheValue(String placeholder) {
        for (String key : SECRET_KEYS) {
            List<String> problems = problems(PROD, key, placeholder);
            assertEquals(1, problems.size(), key + ": " + problems);
            assertTrue(problems.get(0).startsWith(key + " is still a placeholder"), problems.get(0));
            assertFalse(problems.get(0).contains(placeholder.strip()), "the value is never printed: " + problems.get(0));
        }
    }

    @Test
    void everyDemoValueIsRefusedInEverySetting() {
        for (String demo : SecretChecks.DEMO_VALUES) {
            for (String key : SECRET_KEYS) {
                List<String> problems = problems(PROD, key, demo);
                assertEquals(1, problems.size(), key + ": " + problems);
                assertTrue(problems.get(0).startsWith(key + " is a demo value"), problems.get(0));
                assertFalse(problems.get(0).contains(demo), problems.get(0));
            }
        }
    }

    /** Local and dev mode's secrets (application.properties) are demo values: none may pass outside local mode. */
    @Test
    void everySecretOfLocalModeIsAKnownDemoValue() throws IOException {
        Properties p = new Properties();
        try (InputStream in = Files.newInputStream(Path.of("src/main/resources/application.properties"))) {
            p.load(in);
        }
        int found = 0;
        for (String name : p.stringPropertyNames()) {
            String key = name.replaceFirst("^%(local|dev)\\.", "");
            if (!key.equals(name) && SECRET_KEYS.contains(key)) {
                found++;
                assertTrue(SecretChecks.DEMO_VALUES.contains(p.getProperty(name)), name + " is not in DEMO_VALUES");
                assertEquals(1, problems(PROD, key, p.getProperty(name)).size(), name);
            }
        }
        assertEquals(4, found, "the local and dev profiles' control secrets, origin token and signing secret");
    }

    /** k8s/secret.template.yaml's values, as they are, never start a replica. */
    @Test
    void everyValueOfTheSecretTemplateIsRefused() throws IOException {
        Manifests.one(Manifests.K8S.resolve("secret.template.yaml")).get("stringData").fields().forEachRemaining(e -> {
            String key = e.getKey().toLowerCase().replace('_', '.').replace("previous.secret", "previous-secret")
                    .replace("signing.secret", "signing-secret");
            assertTrue(SECRET_KEYS.contains(key), e.getKey() + " is a secret setting the check knows");
            assertEquals(1, problems(PROD, key, e.getValue().asText()).size(), e.getKey());
        });
    }

    @Test
    void theControlSecretsNeed32Bytes() {
        for (String key : List.of("buffer.control.secret", "buffer.control.previous-secret")) {
            assertEquals(List.of(key + " must be at least 32 bytes (generate one with: openssl rand -hex 32), was 31"
                    + " bytes"), problems(PROD, key, "x".repeat(31)));
            assertEquals(List.of(), problems(PROD, key, "x".repeat(32)));
            assertEquals(List.of(), problems(PROD, key, "é".repeat(16)), "bytes, not characters: 16 x 2 bytes");
        }
        assertEquals(List.of(), problems(PROD, "buffer.origin.token", "short"), "the origin's token is the origin's");
    }

    @Test
    void onlyLocalModeIsExempt() {
        assertEquals(List.of(), problems(List.of("local"), "buffer.control.secret", "local-demo-control-secret"));
        assertEquals(List.of(), problems(List.of("dev"), "buffer.control.secret", "REPLACE_ME"));
        for (List<String> profiles : List.of(PROD, List.of("test"), List.of("prod", "local"), List.of("staging"))) {
            assertEquals(1, problems(profiles, "buffer.control.secret", "local-demo-control-secret").size(),
                    profiles.toString());
        }
    }

    /** compose's secrets come from deploy/compose-secrets.sh: run it for real, and its values pass. */
    @Test
    void composeSecretsScriptWritesSecretsThatPass(@TempDir Path dir) throws Exception {
        Path env = dir.resolve(".env");
        Process p = new ProcessBuilder("bash", "deploy/compose-secrets.sh", env.toString()).redirectErrorStream(true)
                .start();
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
        Properties values = new Properties();
        try (InputStream in = Files.newInputStream(env)) {
            values.load(in);
        }
        Map<String, String> secrets = new LinkedHashMap<>();
        secrets.put("buffer.control.secret", values.getProperty("BUFFER_CONTROL_SECRET"));
        secrets.put("buffer.origin.token", values.getProperty("BUFFER_ORIGIN_TOKEN"));
        secrets.put("buffer.delivery.signing-secret", values.getProperty("BUFFER_DELIVERY_SIGNING_SECRET"));
        secrets.put("buffer.status.token", values.getProperty("BUFFER_STATUS_TOKEN"));
        secrets.put("quarkus.datasource.password", values.getProperty("POSTGRES_PASSWORD"));
        secrets.values().forEach(v -> assertEquals(64, v.length(), "64 hex characters"));
        assertEquals(List.of(), SecretChecks.problems(PROD, secrets).problems());
        String compose = Files.readString(Path.of("deploy/compose.yaml"), StandardCharsets.UTF_8);
        for (String name : values.stringPropertyNames()) {
            assertTrue(compose.contains("${" + name + ":?"), "compose.yaml takes " + name + " from the file");
        }
    }
}
