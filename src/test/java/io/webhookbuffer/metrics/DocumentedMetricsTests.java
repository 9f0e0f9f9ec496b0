package io.webhookbuffer.metrics;

import static java.util.Map.entry;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import io.webhookbuffer.ratelimit.shared.SharedWindows;
import io.webhookbuffer.delivery.DeliveryListener;
import io.webhookbuffer.ingress.EdgeRefusal;
import io.webhookbuffer.ingress.IngestOutcome;

/**
 * Every series docs/operations.md's metrics table promises has a test that makes it move (issue 41: an alert on a
 * documented counter that never moved would never fire). The table's rows starting {@code | `buffer_} are read: the
 * metric names of the first cell, and for a labelled metric the label values its third cell lists (the backticked
 * words after the cell's first colon, outside parentheses, up to its first {@code ;} or sentence end). Each such
 * series is mapped here to the test method that moves it: a counter going up by the amount it expects between two
 * reads, a gauge taking the value it expects. Pure JUnit: it reads the docs and the test sources, it boots nothing.
 */
class DocumentedMetricsTests {

    private static final Path DOCS = Path.of("docs/operations.md");
    private static final Path TESTS = Path.of("src/test/java/io/webhookbuffer");

    private static final String SCENARIO = "metrics.MetricsScenarioTests#metricsFollowIngestFailureAndDeadLetters";
    private static final String EDGE =
            "metrics.MetricsScenarioTests#edgeRefusalsAreCountedByReasonAndOffloadedVerificationsCounted";
    private static final String ANSWERS = "ingress.IngestAnswersTests#";
    private static final String LEASES =
            "ratelimit.shared.SharedWindowTests#theScriptGrantsUpToTheLimitThenDeniesWithRetryAfterAndTakesGivenBackSlots";
    private static final String QUOTA = "queue.QueueQuotaTests#rowsOtherReplicasQueuedCountOnceTheSnapshotHasReadThem";

    /**
     * Each documented series ({@code metric} or {@code metric{label=value}}) and the test (package under
     * io.webhookbuffer, class, method) that makes it move. The class's source names the metric (its MetricNames
     * constant or its Prometheus name) and the label value.
     */
    static final Map<String, String> MOVED_BY = Map.ofEntries(
            entry("buffer_ingest_total{outcome=buffered}", SCENARIO),
            entry("buffer_ingest_total{outcome=deduplicated}", SCENARIO),
            entry("buffer_ingest_total{outcome=rate_limited}", SCENARIO),
            entry("buffer_ingest_total{outcome=queue_quota}",
                    "queue.QueueQuotaTests#aTenantAtItsQuotaIsRefusedOthersAreNotAndItIsAcceptedAgainOnceDrained"),
            entry("buffer_ingest_total{outcome=bad_signature}", SCENARIO),
            entry("buffer_ingest_total{outcome=unknown_tenant}", SCENARIO),
            entry("buffer_ingest_total{outcome=too_large}", SCENARIO),
            entry("buffer_ingest_total{outcome=unavailable}", ANSWERS + "verificationPoolFull"),
            entry("buffer_ingest_total{outcome=not_storable}",
                    "queue.GroupCommitIsolationTests#aStripeEventWithANulInItsIdIsStoredAndItsNeighboursToo"),
            entry("buffer_ingest_total{outcome=handshake}", ANSWERS + "slackAndZoomHandshakes"),
            entry("buffer_ingest_ack_seconds", SCENARIO),
            entry("buffer_queue_commit_batch_size", SCENARIO),
            entry("buffer_queue_commit_latency_seconds", SCENARIO),
            entry("buffer_queue_commits_total", SCENARIO),
            entry("buffer_queue_committed_events_total", SCENARIO),
            entry("buffer_queue_commit_seconds_total", SCENARIO),
            entry("buffer_backlog_events", SCENARIO),
            entry("buffer_backlog_oldest_age_seconds", SCENARIO),
            entry("buffer_backlog_tenants", SCENARIO),
            entry("buffer_tenant_backlog_events", SCENARIO),
            entry("buffer_tenant_backlog_oldest_age_seconds", SCENARIO),
            entry("buffer_queue_quota_near_tenants", QUOTA),
            entry("buffer_queue_quota_full_tenants", QUOTA),
            entry("buffer_queue_storage_used_ratio",
                    "queue.QueueQuotaTests#pastTheStorageGuardTheLargestBacklogIsRefusedAndTenantsWithinTheirShareAreNot"),
            entry("buffer_backlog_snapshot_age_seconds", "health.HealthTests#readinessFollowsPostgresAndComesBack"),
            entry("buffer_delivery_total{outcome=success}", EDGE),
            entry("buffer_delivery_total{outcome=failed}", SCENARIO),
            entry("buffer_delivery_total{outcome=refused}", SCENARIO),
            entry("buffer_delivery_total{outcome=circuit_open}", SCENARIO),
            entry("buffer_delivery_latency_seconds", SCENARIO),
            entry("buffer_delivery_delivered_total", EDGE),
            entry("buffer_delivery_dead_lettered_total", SCENARIO),
            entry("buffer_dead_letters", SCENARIO),
            entry("buffer_delivery_failed_batches_total", SCENARIO),
            entry("buffer_ingress_in_flight_bytes", "ingress.SlowSendersTests#"
                    + "bodiesBeyondTheTenantsShareOfTheBudgetAre503WithRetryAfterUntilTheHeldOneIsAnswered"),
            entry("buffer_ingress_refusals_total{reason=lookup_busy}",
                    "tenant.OriginPullBulkheadTests#aSlowOriginIsAskedWithinTheBulkheadAndTheRestAreToldToRetry"),
            entry("buffer_ingress_refusals_total{reason=replica_busy}", "ingress.SlowSendersTests#"
                    + "bodiesBeyondTheTenantsShareOfTheBudgetAre503WithRetryAfterUntilTheHeldOneIsAnswered"),
            entry("buffer_ingress_refusals_total{reason=verification_busy}", ANSWERS + "verificationPoolFull"),
            entry("buffer_ingress_refusals_total{reason=not_stored}",
                    "ingress.DatabaseOutageTests#unreachableDatabaseAnswers503AndLeavesNoDedupeResidue"),
            entry("buffer_ingress_refusals_total{reason=invalid_host}", EDGE),
            entry("buffer_ingress_refusals_total{reason=invalid_path}",
                    "ingress.IngressEdgeTests#aPathWithDotSegmentsIsTheDocumentedJson400OnEveryPath"),
            entry("buffer_ingress_refusals_total{reason=too_many_headers}", EDGE),
            entry("buffer_ingress_refusals_total{reason=request_timeout}",
                    "ingress.SlowSendersTests#aBodyDribbledPastTheBodyTimeoutIs408AndTheConnectionClosed"),
            entry("buffer_ingress_refusals_total{reason=head_timeout}",
                    "ingress.SlowSendersTests#aConnectionThatSendsNothingIsClosedAtTheHeadDeadline"),
            entry("buffer_ingress_refusals_total{reason=too_many_connections}",
                    "ingress.ConnectionCapTests#aConnectionPastTheCapIsAnswered503TooManyConnectionsAndClosed"),
            entry("buffer_ingress_verifications_offloaded_total", EDGE),
            entry("buffer_actors_live", EDGE),
            entry("buffer_actors_mailbox_depth",
                    "ingress.DatabaseOutageTests#unresponsiveDatabaseTimesOutTo503AndAFullMailboxAnswers503AtOnce"),
            entry("buffer_origin_circuits_open", SCENARIO),
            entry("buffer_origin_circuit_open", SCENARIO),
            entry("buffer_redis_fallback", "health.HealthTests#redisDownIsReportedButDoesNotFailReadiness"),
            entry("buffer_ratelimit_fallback",
                    "ratelimit.shared.SharedWindowTests#withRedisCutIngestAdmitsOnTheLocalShareAndSaysSoThenLeasesAgain"),
            entry("buffer_ratelimit_replicas",
                    "ratelimit.shared.SharedWindowTests#withRedisCutIngestAdmitsOnTheLocalShareAndSaysSoThenLeasesAgain"),
            entry("buffer_ratelimit_leases_total{outcome=granted}", LEASES),
            entry("buffer_ratelimit_leases_total{outcome=denied}", LEASES),
            entry("buffer_ratelimit_leases_total{outcome=failed}",
                    "ratelimit.shared.SharedWindowTests#withRedisCutIngestAdmitsOnTheLocalShareAndSaysSoThenLeasesAgain"),
            entry("buffer_ratelimit_lease_latency_seconds", LEASES),
            entry("buffer_sender_refusals_total",
                    "delivery.NeverRetryingSendersTests#aStripeTenantOverItsLimitIsRefusedAsBeforeAndCounted"),
            entry("buffer_lifecycle_refused_total", "controlplane.LifecycleOutboxTests#"
                    + "anEventTheControlPlaneRefusesIsSetAsideAndTheEventsBehindItAreDelivered"),
            entry("buffer_ready", "health.HealthTests#readinessFollowsPostgresAndComesBack"));

    /**
     * Documented series no test can move, each with why; docs/operations.md says what produces them. Keep it empty
     * where a test can be written.
     */
    static final Map<String, String> NOT_PRODUCIBLE = Map.of();

    @Test
    void everyDocumentedSeriesHasATestThatMovesItAndEveryEntryADocumentedSeries() throws IOException {
        Set<String> documented = documentedSeries();
        Set<String> mapped = new TreeSet<>(MOVED_BY.keySet());
        mapped.addAll(NOT_PRODUCIBLE.keySet());
        Set<String> missing = new TreeSet<>(documented);
        missing.removeAll(mapped);
        Set<String> stale = new TreeSet<>(mapped);
        stale.removeAll(documented);
        assertEquals(Set.of(), missing, "documented series with no test that moves them (add one, then an entry)");
        assertEquals(Set.of(), stale, "entries for series docs/operations.md no longer lists");
        Set<String> both = new TreeSet<>(MOVED_BY.keySet());
        both.retainAll(NOT_PRODUCIBLE.keySet());
        assertEquals(Set.of(), both, "a series with a test is producible");
    }

    @Test
    void everyNamedTestMethodExistsAndItsClassNamesTheSeries() throws IOException, ClassNotFoundException {
        List<String> wrong = new ArrayList<>();
        for (Map.Entry<String, String> e : new TreeMap<>(MOVED_BY).entrySet()) {
            String series = e.getKey();
            String[] test = e.getValue().split("#", 2);
            Class<?> type = Class.forName("io.webhookbuffer." + test[0], false, getClass().getClassLoader());
            if (!declares(type, test[1])) {
                wrong.add(series + ": no method " + e.getValue());
                continue;
            }
            String source = Files.readString(TESTS.resolve(test[0].replace('.', '/') + ".java"), StandardCharsets.UTF_8);
            String metric = metricOf(series);
            String constant = constantOf(metric);
            if (!source.contains(metric) && !Pattern.compile("MetricNames\\." + constant + "\\b").matcher(source).find()) {
                wrong.add(series + ": " + test[0] + " names neither " + metric + " nor MetricNames." + constant);
            }
            String value = valueOf(series);
            if (value != null && !source.contains("\"" + value + "\"")
                    && !Pattern.compile("\\." + value.toUpperCase(Locale.ROOT) + "\\b").matcher(source).find()) {
                wrong.add(series + ": " + test[0] + " never names \"" + value + "\"");
            }
        }
        assertEquals(List.of(), wrong);
    }

    @Test
    void theNotProducibleSeriesSayWhy() {
        NOT_PRODUCIBLE.forEach((series, why) -> assertFalse(why.isBlank(), series));
    }

    /** The table lists every meter MetricNames exports, and nothing else. */
    @Test
    void theTableListsExactlyTheMetricNamesMeters() throws IOException {
        Set<String> exported = MetricNames.ALL.stream().map(MetricNames.Metric::prometheus)
                .collect(Collectors.toCollection(TreeSet::new));
        assertEquals(exported, new TreeSet<>(rows().keySet()));
    }

    /** The label values the table lists are exactly the ones the code registers, so none is exported unseen. */
    @Test
    void theDocumentedLabelValuesAreTheOnesTheCodeExports() throws IOException {
        Map<String, Row> rows = rows();
        assertEquals(labels(IngestOutcome.values(), IngestOutcome::label), documented(rows, MetricNames.INGEST));
        assertEquals(labels(EdgeRefusal.values(), EdgeRefusal::label), documented(rows, MetricNames.INGRESS_REFUSALS));
        assertEquals(labels(DeliveryListener.Outcome.values(), DeliveryListener.Outcome::label),
                documented(rows, MetricNames.DELIVERY));
        assertEquals(new TreeSet<>(SharedWindows.OUTCOMES), documented(rows, MetricNames.RATELIMIT_LEASES));
    }

    private static Set<String> documented(Map<String, Row> rows, MetricNames.Metric metric) {
        Row row = rows.get(metric.prometheus());
        assertTrue(row != null, metric.prometheus() + " is in the table");
        return new TreeSet<>(row.values());
    }

    /** The parser reads a row as intended: names, label, values; not the words in parentheses or after the list. */
    @Test
    void theParserReadsTheListAndNothingAround() {
        Map<String, Row> rows = new LinkedHashMap<>();
        read("| `a_total{outcome}`, `b` | counter | things: `x` 1 (not `y`; nor `z`), `w_v`; an `other` thing |", rows);
        read("| `c_total{reason}` | counter | refusals: `p` (503: `q.r` here). A `s` also |", rows);
        read("| `d_seconds{outcome}` | histogram | time, by outcome (a `202`: see) |", rows);
        assertEquals(new Row("outcome", List.of("x", "w_v")), rows.get("a_total"));
        assertEquals(new Row(null, List.of()), rows.get("b"));
        assertEquals(new Row("reason", List.of("p")), rows.get("c_total"));
        assertEquals(new Row("outcome", List.of()), rows.get("d_seconds"));
    }

    // ---- the table ----

    /** A documented metric's label (null for none) and the values its row lists (empty for none). */
    private record Row(String label, List<String> values) {
    }

    private static Set<String> documentedSeries() throws IOException {
        Set<String> series = new TreeSet<>();
        rows().forEach((metric, row) -> {
            if (row.values().isEmpty()) {
                series.add(metric);
            } else {
                row.values().forEach(v -> series.add(metric + "{" + row.label() + "=" + v + "}"));
            }
        });
        return series;
    }

    /** Each documented metric (Prometheus family name) and its row. */
    private static Map<String, Row> rows() throws IOException {
        String text = Files.readString(DOCS, StandardCharsets.UTF_8);
        int start = text.indexOf("\n## Metrics");
        assertTrue(start >= 0, "docs/operations.md has a ## Metrics section");
        int end = text.indexOf("\n## ", start + 1);
        Map<String, Row> rows = new LinkedHashMap<>();
        for (String line : text.substring(start, end < 0 ? text.length() : end).split("\n")) {
            if (line.startsWith("| `buffer_")) {
                read(line, rows);
            }
        }
        assertFalse(rows.isEmpty(), "the metrics table has rows");
        return rows;
    }

    /**
     * A metric name, with its one listed label ({@code buffer_ingest_total{outcome}}: its values are the cell's list),
     * or with several ({@code {reason, sender_retries}}: mapped as one series, its values asserted by its own test).
     */
    private static final Pattern NAME = Pattern.compile("`([a-z_]+)(?:\\{([a-z_]+)}|\\{[a-z_]+(?:, ?[a-z_]+)+})?`");

    private static void read(String line, Map<String, Row> rows) {
        String[] cells = line.split("\\|");
        List<String> values = listed(cells[3]);
        Matcher m = NAME.matcher(cells[1]);
        while (m.find()) {
            String label = m.group(2);
            rows.put(m.group(1), new Row(label, label == null ? List.of() : values));
        }
    }

    /**
     * The backticked words of a cell's list: after its first colon outside parentheses, up to its first {@code ;} or
     * {@code ". "} outside them, the words outside parentheses.
     */
    static List<String> listed(String cell) {
        // Backticked words first (they may hold parentheses), as placeholders; then the parentheses go, nested first.
        List<String> words = new ArrayList<>();
        Matcher quoted = Pattern.compile("`([^`]*)`").matcher(cell);
        StringBuilder plain = new StringBuilder();
        while (quoted.find()) {
            words.add(quoted.group(1));
            quoted.appendReplacement(plain, "<<" + (words.size() - 1) + ">>");
        }
        quoted.appendTail(plain);
        String text = plain.toString();
        for (String before = ""; !before.equals(text);) {
            before = text;
            text = text.replaceAll("\\([^()]*\\)", "");
        }
        int colon = text.indexOf(':');
        if (colon < 0) {
            return List.of();
        }
        String list = text.substring(colon + 1).split(";|\\. ", 2)[0];
        List<String> values = new ArrayList<>();
        Matcher placeholder = Pattern.compile("<<(\\d+)>>").matcher(list);
        while (placeholder.find()) {
            String word = words.get(Integer.parseInt(placeholder.group(1)));
            if (word.matches("[a-z][a-z_]*")) {
                values.add(word);
            }
        }
        return values;
    }

    // ---- names ----

    private static String metricOf(String series) {
        int brace = series.indexOf('{');
        return brace < 0 ? series : series.substring(0, brace);
    }

    private static String valueOf(String series) {
        int eq = series.indexOf('=');
        return eq < 0 ? null : series.substring(eq + 1, series.length() - 1);
    }

    /** The MetricNames field whose Prometheus name this is. */
    private static String constantOf(String prometheus) {
        for (Field f : MetricNames.class.getFields()) {
            if (Modifier.isStatic(f.getModifiers()) && f.getType() == MetricNames.Metric.class) {
                try {
                    if (((MetricNames.Metric) f.get(null)).prometheus().equals(prometheus)) {
                        return f.getName();
                    }
                } catch (IllegalAccessException e) {
                    throw new IllegalStateException(e);
                }
            }
        }
        return "NO_SUCH_METRIC";
    }

    private static <T> Set<String> labels(T[] values, Function<T, String> label) {
        return Arrays.stream(values).map(label).collect(Collectors.toCollection(TreeSet::new));
    }

    private static boolean declares(Class<?> type, String name) {
        for (Method m : type.getDeclaredMethods()) {
            if (m.getName().equals(name)) {
                return true;
            }
        }
        return false;
    }
}
