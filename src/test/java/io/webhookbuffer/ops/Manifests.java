package io.webhookbuffer.ops;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;

/** Reads the files under deploy/ and k8s/ for the manifest tests. */
final class Manifests {

    static final Path DEPLOY = Path.of("deploy");
    static final Path K8S = Path.of("k8s");
    /** Files whose PromQL names metrics: alert rules (both forms), the dashboard, the runbook. */
    static final List<Path> METRIC_USERS = List.of(DEPLOY.resolve("prometheus/alerts.yaml"),
            K8S.resolve("prometheusrule.yaml"), DEPLOY.resolve("grafana/webhook-buffer.json"), Path.of("docs/runbook.md"));
    private static final Pattern METRIC = Pattern.compile("\\b((?:buffer|http_server)_[a-z0-9_]*[a-z0-9])\\b");
    private static final YAMLMapper YAML = new YAMLMapper();

    private Manifests() {
    }

    static List<Path> yamlFiles() {
        List<Path> files = new ArrayList<>();
        for (Path root : List.of(DEPLOY, K8S)) {
            try (Stream<Path> walk = Files.walk(root)) {
                walk.filter(p -> p.toString().endsWith(".yaml") || p.toString().endsWith(".yml")).sorted()
                        .forEach(files::add);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return files;
    }

    /** Every YAML document of the file (a file may hold several, separated by ---). */
    static List<JsonNode> documents(Path file) throws IOException {
        List<JsonNode> docs = new ArrayList<>();
        try (var parser = new YAMLFactory().createParser(file.toFile())) {
            var it = YAML.readValues(parser, JsonNode.class);
            while (it.hasNext()) {
                JsonNode doc = it.next();
                if (doc != null && !doc.isNull() && !doc.isMissingNode()) {
                    docs.add(doc);
                }
            }
        }
        return docs;
    }

    static JsonNode one(Path file) throws IOException {
        List<JsonNode> docs = documents(file);
        if (docs.size() != 1) {
            throw new IllegalStateException(file + " holds " + docs.size() + " documents");
        }
        return docs.get(0);
    }

    static JsonNode json(Path file) throws IOException {
        return new ObjectMapper().readTree(file.toFile());
    }

    /** The metric series names the file mentions (buffer_* and Quarkus' http_server_*). */
    static Set<String> metricsIn(Path file) throws IOException {
        Set<String> names = new TreeSet<>();
        Matcher m = METRIC.matcher(Files.readString(file, StandardCharsets.UTF_8));
        while (m.find()) {
            names.add(m.group(1));
        }
        return names;
    }

    static Set<String> referencedMetrics() throws IOException {
        Set<String> all = new TreeSet<>();
        for (Path p : METRIC_USERS) {
            all.addAll(metricsIn(p));
        }
        return all;
    }

    /** The family a series belongs to: histogram and summary series drop their suffix. */
    static String family(String series) {
        for (String suffix : List.of("_bucket", "_count", "_sum", "_max")) {
            if (series.endsWith(suffix)) {
                return series.substring(0, series.length() - suffix.length());
            }
        }
        return series;
    }
}
