package io.webhookbuffer.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import io.webhookbuffer.metrics.MetricNames;

/**
 * deploy/ and k8s/ hold what the app really serves: every YAML parses, the alert rules exist once (the PrometheusRule
 * carries the same groups as the Prometheus file), every metric they and the dashboard name is a MetricNames family,
 * probes and ports match the app's, and settings are keys of docs/configuration.md. ManifestServedTests checks the
 * same names and paths against the running app. The Dockerfile is checked for its shape only: no container engine
 * runs here.
 */
class ManifestTests {

    @Test
    void everyYamlUnderDeployAndK8sParses() throws IOException {
        List<Path> files = Manifests.yamlFiles();
        assertTrue(files.size() >= 14, "deploy/ and k8s/ files found: " + files);
        for (Path file : files) {
            assertFalse(Manifests.documents(file).isEmpty(), file + " holds a document");
        }
        JsonNode dashboard = Manifests.json(Manifests.DEPLOY.resolve("grafana/webhook-buffer.json"));
        assertTrue(dashboard.get("panels").size() > 10, "dashboard panels");
    }

    @Test
    void kustomizationListsTheManifestsAndEveryKindIsThere() throws IOException {
        JsonNode kustomization = Manifests.one(Manifests.K8S.resolve("kustomization.yaml"));
        Set<String> kinds = new HashSet<>();
        for (JsonNode resource : kustomization.get("resources")) {
            Path file = Manifests.K8S.resolve(resource.asText());
            assertTrue(Files.exists(file), "kustomization resource " + file);
            Manifests.documents(file).forEach(doc -> kinds.add(doc.get("kind").asText()));
        }
        assertEquals(Set.of("ConfigMap", "Deployment", "Service", "Ingress", "HorizontalPodAutoscaler",
                "PodDisruptionBudget", "NetworkPolicy", "ServiceMonitor", "PrometheusRule"), kinds);
        JsonNode secret = Manifests.one(Manifests.K8S.resolve("secret.template.yaml"));
        assertEquals("Secret", secret.get("kind").asText());
        secret.get("stringData").fields().forEachRemaining(e -> assertTrue(e.getValue().asText().startsWith("REPLACE_ME"),
                "the template holds placeholders only: " + e.getKey()));
    }

    @Test
    void prometheusRuleCarriesExactlyTheAlertRulesOfThePrometheusFile() throws IOException {
        JsonNode file = Manifests.one(Manifests.DEPLOY.resolve("prometheus/alerts.yaml"));
        JsonNode rule = Manifests.one(Manifests.K8S.resolve("prometheusrule.yaml"));
        assertEquals(file.get("groups"), rule.get("spec").get("groups"));
        Set<String> alerts = new HashSet<>();
        file.get("groups").forEach(g -> g.get("rules").forEach(r -> alerts.add(r.get("alert").asText())));
        for (String needed : List.of("WebhookBufferBacklogOldestAge", "WebhookBufferDeadLettersGrowing",
                "WebhookBufferOriginFailing", "WebhookBufferIngestUnavailable", "WebhookBufferHttp5xx",
                "WebhookBufferReadinessFlapping", "WebhookBufferQueueQuotaNear", "WebhookBufferQueueQuotaFull")) {
            assertTrue(alerts.contains(needed), needed);
        }
    }

    @Test
    void everyMetricTheRulesDashboardAndRunbookNameIsAMetricNamesFamily() throws IOException {
        Set<String> families = MetricNames.ALL.stream().map(MetricNames.Metric::prometheus).collect(Collectors.toSet());
        Set<String> referenced = Manifests.referencedMetrics();
        assertTrue(referenced.size() > 15, "metrics referenced: " + referenced);
        for (String series : referenced) {
            if (series.startsWith("http_server_")) {
                continue; // Quarkus' own HTTP meter: checked against the live scrape in ManifestServedTests
            }
            assertTrue(families.contains(Manifests.family(series)), series + " is not in MetricNames");
        }
        for (String required : List.of("buffer_ingest_total", "buffer_backlog_events", "buffer_backlog_oldest_age_seconds",
                "buffer_delivery_total", "buffer_dead_letters")) {
            assertTrue(families.contains(required), required);
            assertTrue(Manifests.metricsIn(Path.of("docs/runbook.md")).contains(required), "runbook documents " + required);
        }
        for (MetricNames.Metric m : MetricNames.ALL) {
            assertFalse(m.description().isBlank(), m.name());
            assertTrue(Manifests.metricsIn(Path.of("docs/runbook.md")).stream().anyMatch(
                    s -> Manifests.family(s).equals(m.prometheus())), "the runbook says what to do about " + m.prometheus());
        }
    }

    @Test
    void deploymentProbesPortsAndSecurityMatchTheApp() throws IOException {
        JsonNode pod = Manifests.one(Manifests.K8S.resolve("deployment.yaml")).at("/spec/template/spec");
        JsonNode container = pod.get("containers").get(0);
        assertEquals(appPort(), containerPort(container, "http"), "the http port = buffer.ingress.port");
        assertEquals(managementPort(), containerPort(container, "management"),
                "the management port = the ConfigMap's BUFFER_MANAGEMENT_PORT");
        assertEquals("/q/health/live", container.at("/livenessProbe/httpGet/path").asText());
        assertEquals("/q/health/ready", container.at("/readinessProbe/httpGet/path").asText());
        assertEquals("/q/health/started", container.at("/startupProbe/httpGet/path").asText());
        for (String probe : List.of("livenessProbe", "readinessProbe", "startupProbe")) {
            assertEquals("management", container.at("/" + probe + "/httpGet/port").asText(),
                    probe + " on the management port: the webhook port answers 404 for /q/*");
        }
        assertTrue(pod.at("/securityContext/runAsNonRoot").asBoolean());
        assertTrue(container.at("/securityContext/readOnlyRootFilesystem").asBoolean());
        assertFalse(container.at("/securityContext/allowPrivilegeEscalation").asBoolean(true));
        assertTrue(container.at("/volumeMounts").findValuesAsText("mountPath").contains("/tmp"), "a writable /tmp");
        long grace = pod.get("terminationGracePeriodSeconds").asLong();
        JsonNode config = Manifests.one(Manifests.K8S.resolve("configmap.yaml")).at("/data");
        long delay = seconds(config.at("/QUARKUS_SHUTDOWN_DELAY").asText());
        long shutdown = seconds(config.at("/QUARKUS_SHUTDOWN_TIMEOUT").asText());
        // The delay + the HTTP drain + queued commits (write-timeout 5 s + a quarter + 0.1 s) + drain steps (10 s + 1 s)
        assertTrue(grace >= delay + shutdown + 7 + 11, "grace period covers the whole shutdown: " + grace);
        JsonNode readiness = container.at("/readinessProbe");
        assertTrue(delay >= readiness.at("/periodSeconds").asLong() * readiness.at("/failureThreshold").asLong(),
                "the shutdown delay outlasts the failed readiness probes a load balancer may wait for: " + delay);
        assertTrue(container.at("/lifecycle/preStop").isMissingNode(), "the app's delay, not a preStop sleep");

    }

    @Test
    void theWebhookServiceExposesTheWebhookPortOnlyAndPrometheusScrapesTheManagementService() throws IOException {
        JsonNode podLabels = Manifests.one(Manifests.K8S.resolve("deployment.yaml")).at("/spec/template/metadata/labels");
        JsonNode service = Manifests.one(Manifests.K8S.resolve("service.yaml"));
        assertEquals(1, service.at("/spec/ports").size(), "the Service an ingress points at carries one port");
        assertEquals("http", service.at("/spec/ports/0/targetPort").asText());
        assertEquals(podLabels, service.at("/spec/selector"), "the Service selects the Deployment's pods");
        JsonNode management = Manifests.one(Manifests.K8S.resolve("service-management.yaml"));
        assertEquals(1, management.at("/spec/ports").size());
        assertEquals("management", management.at("/spec/ports/0/targetPort").asText());
        assertEquals("ClusterIP", management.at("/spec/type").asText(), "inside the cluster only");
        assertEquals(podLabels, management.at("/spec/selector"));

        JsonNode monitor = Manifests.one(Manifests.K8S.resolve("servicemonitor.yaml"));
        monitor.at("/spec/selector/matchLabels").fields().forEachRemaining(label -> {
            assertEquals(label.getValue(), management.path("metadata").path("labels").path(label.getKey()),
                    "the ServiceMonitor selects the management Service: " + label.getKey());
        });
        JsonNode serviceLabels = service.path("metadata").path("labels");
        boolean selectsWebhookService = true;
        for (var label : (Iterable<Map.Entry<String, JsonNode>>) () -> monitor.at("/spec/selector/matchLabels").fields()) {
            selectsWebhookService &= label.getValue().equals(serviceLabels.path(label.getKey()));
        }
        assertFalse(selectsWebhookService, "the ServiceMonitor does not select the webhook Service");
        assertEquals(management.at("/spec/ports/0/name").asText(), monitor.at("/spec/endpoints/0/port").asText());
        assertEquals("/q/metrics", monitor.at("/spec/endpoints/0/path").asText());
    }

    @Test
    void networkPolicyAdmitsWebhooksFromTheIngressAndManagementFromMonitoringAndTheControlPlane() throws IOException {
        JsonNode policy = Manifests.one(Manifests.K8S.resolve("networkpolicy.yaml")).get("spec");
        assertEquals(Set.of("Ingress", "Egress"), texts(policy.get("policyTypes")));
        Map<Integer, Set<String>> admitted = new HashMap<>();
        for (JsonNode rule : policy.get("ingress")) {
            assertTrue(rule.has("from") && rule.get("from").size() > 0, "no ingress rule open to every source: " + rule);
            Set<String> namespaces = new HashSet<>();
            for (JsonNode peer : rule.get("from")) {
                assertEquals(List.of("namespaceSelector"), fieldNames(peer), "sources are namespaces: " + peer);
                namespaces.add(peer.at("/namespaceSelector/matchLabels/kubernetes.io~1metadata.name").asText());
            }
            assertTrue(rule.has("ports"), "every ingress rule names its port: " + rule);
            rule.get("ports").forEach(port -> admitted.merge(port.get("port").asInt(), namespaces, (a, b) -> {
                Set<String> both = new HashSet<>(a);
                both.addAll(b);
                return both;
            }));
        }
        assertEquals(Map.of(appPort(), Set.of("ingress-nginx"), managementPort(), Set.of("monitoring", "control-plane")),
                admitted, "the webhook port from the ingress controller only, the management port from monitoring and"
                        + " the control plane only");
    }

    @Test
    void networkPolicyEgressNeverReachesTheMetadataAddressNorLinkLocalBeyondDns() throws IOException {
        JsonNode policy = Manifests.one(Manifests.K8S.resolve("networkpolicy.yaml")).get("spec");
        Set<Integer> allowed = new HashSet<>();
        for (JsonNode rule : policy.get("egress")) {
            assertTrue(rule.has("to") && rule.has("ports"), "no egress rule open to every address or port: " + rule);
            Set<Integer> ports = new HashSet<>();
            rule.get("ports").forEach(port -> ports.add(port.get("port").asInt()));
            allowed.addAll(ports);
            boolean dnsOnly = ports.equals(Set.of(53));
            for (JsonNode peer : rule.get("to")) {
                if (peer.has("namespaceSelector")) {
                    continue; // pods: the metadata service is not one
                }
                String cidr = peer.at("/ipBlock/cidr").asText();
                Set<String> except = texts(peer.at("/ipBlock/except"));
                if (cidr.contains(":")) {
                    assertTrue(except.contains("fd00:ec2::254/128"), "the IPv6 metadata address excepted: " + peer);
                    assertTrue(dnsOnly || except.contains("fe80::/10"), "IPv6 link-local excepted: " + peer);
                } else if (containsMetadata(cidr)) {
                    boolean linkLocalOut = except.contains("169.254.0.0/16");
                    assertTrue(linkLocalOut || dnsOnly && except.contains("169.254.169.254/32"),
                            "link-local (DNS: the metadata address at least) excepted from " + cidr + ": " + peer);
                }
            }
        }
        assertEquals(Set.of(53, 5432, 6379, 443, 80), allowed, "DNS, PostgreSQL, Redis and HTTP(S) origins");
    }

    @Test
    void settingsInTheManifestsAreDocumentedKeys() throws IOException {
        String table = Files.readString(Path.of("docs/configuration.md"), StandardCharsets.UTF_8);
        Set<String> documented = new HashSet<>();
        Matcher m = Pattern.compile("`(BUFFER_[A-Z0-9_]+|QUARKUS_[A-Z0-9_]+)`").matcher(table);
        while (m.find()) {
            documented.add(m.group(1));
        }
        Map<String, String> settings = new HashMap<>();
        Manifests.one(Manifests.K8S.resolve("configmap.yaml")).get("data").fields()
                .forEachRemaining(e -> settings.put(e.getKey(), e.getValue().asText()));
        Manifests.one(Manifests.K8S.resolve("secret.template.yaml")).get("stringData").fields()
                .forEachRemaining(e -> settings.put(e.getKey(), e.getValue().asText()));
        Manifests.one(Manifests.DEPLOY.resolve("compose.yaml")).at("/services/buffer/environment").fields()
                .forEachRemaining(e -> settings.put(e.getKey(), e.getValue().asText()));
        List<String> unknown = new ArrayList<>();
        settings.keySet().stream().filter(k -> !documented.contains(k)).forEach(unknown::add);
        assertTrue(unknown.isEmpty(), "settings not in docs/configuration.md: " + unknown);
    }

    @Test
    void composeRunsTheWholeStackWithHealthchecks() throws IOException {
        JsonNode services = Manifests.one(Manifests.DEPLOY.resolve("compose.yaml")).get("services");
        for (String name : List.of("postgres", "redis", "buffer", "demo-origin")) {
            assertTrue(services.has(name), name);
            assertTrue(services.get(name).has("healthcheck"), name + " healthcheck");
        }
        assertTrue(services.at("/buffer/healthcheck/test/1").asText().contains("/q/health/ready"));
        String managementPort = services.at("/buffer/environment/BUFFER_MANAGEMENT_PORT").asText();
        assertTrue(services.at("/buffer/healthcheck/test/1").asText().contains("/" + managementPort + " "),
                "the healthcheck asks the management port " + managementPort);
        String prometheus = Files.readString(Manifests.DEPLOY.resolve("prometheus/prometheus.yml"), StandardCharsets.UTF_8);
        assertTrue(prometheus.contains("buffer:" + managementPort), "Prometheus scrapes the management port");
        assertEquals("service_healthy", services.at("/buffer/depends_on/postgres/condition").asText());
        List<String> published = new ArrayList<>();
        services.at("/buffer/ports").forEach(p -> published.add(p.asText()));
        assertTrue(published.contains("127.0.0.1:" + managementPort + ":" + managementPort),
                "the management port is published on the loopback only: " + published);
        assertTrue(published.stream().noneMatch(p -> p.equals(managementPort + ":" + managementPort)),
                "never on every interface: " + published);
    }

    /**
     * Each image's build stage copies every top-level directory of the checkout that pom.xml reads
     * ({@code ${project.basedir}/...}, build output aside), and .dockerignore keeps none of them out: Checkstyle runs in
     * validate and reads config/, so without it the Maven build in the image failed before compiling (first seen
     * building deploy/Dockerfile with podman, deploy/image-check.sh).
     */
    @Test
    void imageBuildsCopyEveryDirectoryThePomReads() throws IOException {
        String pom = Files.readString(Path.of("pom.xml"), StandardCharsets.UTF_8);
        Set<String> read = new HashSet<>();
        Matcher dir = Pattern.compile("\\$\\{project\\.basedir}/([^/<]+)").matcher(pom);
        while (dir.find()) {
            read.add(dir.group(1));
        }
        read.remove("target");
        assertTrue(read.contains("config") && read.contains("src"), "pom.xml reads config/ and src/: " + read);
        List<String> ignore = Files.readAllLines(Path.of(".dockerignore"), StandardCharsets.UTF_8);
        for (String file : List.of("Dockerfile", "tools.Dockerfile")) {
            String dockerfile = Files.readString(Manifests.DEPLOY.resolve(file), StandardCharsets.UTF_8);
            for (String top : read) {
                assertTrue(Pattern.compile("(?m)^COPY " + Pattern.quote(top) + "/? ").matcher(dockerfile).find(),
                        file + " copies " + top + "/, which pom.xml reads");
                assertFalse(ignore.contains(top + "/") || ignore.contains(top), ".dockerignore keeps out " + top);
            }
        }
    }

    @Test
    void dockerfileIsMultiStageNonRootAndDockerignoreKeepsTheContextClean() throws IOException {
        String dockerfile = Files.readString(Manifests.DEPLOY.resolve("Dockerfile"), StandardCharsets.UTF_8);
        assertEquals(3, Pattern.compile("(?m)^FROM ").matcher(dockerfile).results().count(),
                "three stages: build, train the AOT cache, run");
        assertTrue(dockerfile.contains("mvn -B -Paot package"), "built with Maven as an aot-jar");
        assertTrue(dockerfile.contains("COPY deploy/aot-train.sh ") && dockerfile.contains("aot-train.sh /app"),
                "the cache trained at the path the service runs from");
        assertTrue(Pattern.compile("(?m)^ENTRYPOINT \\[.*\"-XX:AOTCache=/app/aot/app.aot\"").matcher(dockerfile).find(),
                "the service runs with its cache");
        assertTrue(Pattern.compile("(?m)^USER 10001").matcher(dockerfile).find(), "non-root user");
        assertTrue(dockerfile.contains("EXPOSE " + appPort() + " " + managementPort()), "both ports");
        assertTrue(dockerfile.contains("BUFFER_MANAGEMENT_PORT=" + managementPort()),
                "the image answers management paths on the management port only, k8s/ or not");
        assertTrue(dockerfile.contains("MaxRAMPercentage"), "container-aware heap");
        List<String> ignore = Files.readAllLines(Path.of(".dockerignore"), StandardCharsets.UTF_8);
        for (String entry : List.of("target/", ".idea/", ".vscode/", "*.iml", ".git/", ".env", "*.pem", "*.key",
                ".webhook-buffer-data/")) {
            assertTrue(ignore.contains(entry), ".dockerignore lacks " + entry);
        }
    }

    /**
     * The Ingress routes the webhook path only, to the Service's port, with tenant affinity by path (issue 19 item 3)
     * and a body size at least the buffer's ceiling (nginx's own default, 1m, would refuse what the buffer accepts).
     */
    @Test
    void ingressRoutesOnlyWebhooksWithTenantAffinityAndTheBufferCeiling() throws IOException {
        JsonNode ingress = Manifests.one(Manifests.K8S.resolve("ingress.yaml"));
        JsonNode paths = ingress.at("/spec/rules/0/http/paths");
        assertEquals(1, paths.size(), "one path");
        assertEquals("/webhook/", paths.get(0).get("path").asText());
        assertEquals("Prefix", paths.get(0).get("pathType").asText());
        JsonNode service = Manifests.one(Manifests.K8S.resolve("service.yaml"));
        assertEquals(service.at("/metadata/name").asText(), paths.get(0).at("/backend/service/name").asText());
        assertEquals(service.at("/spec/ports/0/name").asText(), paths.get(0).at("/backend/service/port/name").asText());
        JsonNode annotations = ingress.at("/metadata/annotations");
        assertEquals("$uri", annotations.get("nginx.ingress.kubernetes.io/upstream-hash-by").asText(),
                "consistent hashing on the path without its query: one tenant, one replica");
        Properties p = new Properties();
        try (InputStream in = Files.newInputStream(Path.of("src/main/resources/application.properties"))) {
            p.load(in);
        }
        assertEquals(megabytes(p.getProperty("quarkus.http.limits.max-body-size")),
                megabytes(annotations.get("nginx.ingress.kubernetes.io/proxy-body-size").asText()),
                "the ingress takes the bodies the buffer takes");
    }

    private static long megabytes(String size) {
        String digits = size.replaceAll("[^0-9]", "");
        assertTrue(size.strip().toLowerCase(Locale.ROOT).endsWith("m"), size);
        return Long.parseLong(digits);
    }

    private static int appPort() throws IOException {
        Properties p = new Properties();
        try (InputStream in = Files.newInputStream(Path.of("src/main/resources/application.properties"))) {
            p.load(in);
        }
        return Integer.parseInt(p.getProperty("buffer.ingress.port"));
    }

    private static int managementPort() throws IOException {
        return Manifests.one(Manifests.K8S.resolve("configmap.yaml")).at("/data/BUFFER_MANAGEMENT_PORT").asInt();
    }

    private static int containerPort(JsonNode container, String name) {
        for (JsonNode port : container.get("ports")) {
            if (port.get("name").asText().equals(name)) {
                return port.get("containerPort").asInt();
            }
        }
        throw new AssertionError("no container port named " + name);
    }

    private static Set<String> texts(JsonNode array) {
        Set<String> out = new HashSet<>();
        array.forEach(v -> out.add(v.asText()));
        return out;
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }

    /** Whether an IPv4 CIDR holds 169.254.169.254, the cloud metadata address. */
    private static boolean containsMetadata(String cidr) throws IOException {
        String[] parts = cidr.split("/");
        int bits = Integer.parseInt(parts[1]);
        long mask = bits == 0 ? 0 : 0xFFFFFFFFL << (32 - bits) & 0xFFFFFFFFL;
        return (ipv4(parts[0]) & mask) == (ipv4("169.254.169.254") & mask);
    }

    private static long ipv4(String address) throws IOException {
        long value = 0;
        for (byte b : InetAddress.getByName(address).getAddress()) {
            value = value << 8 | (b & 0xFF);
        }
        return value;
    }

    private static long seconds(String duration) {
        assertTrue(duration.endsWith("s"), duration);
        return Long.parseLong(duration.substring(0, duration.length() - 1));
    }
}
