package io.webhookbuffer.bench;

import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The end of a benchmark run: waits until the origin has every event the buffer acknowledged (or the wait runs
 * out), proves the loss check, and prints the one summary table, with ingest's rate as a share of the HTTP and the
 * durable-commit ceilings measured in the same run. {@code bench/run.sh} calls it; its options are the files and
 * figures the script collected.
 */
public final class BenchReport {

    static final String USAGE = """
            usage: BenchReport --origin http://127.0.0.1:9000 --accepted FILE[,FILE...] --ingest RESULT.json
                   [--scenario NAME] [--drain-start-ms EPOCH_MS] [--drain-start-count N] [--wait 300s]
                   [--http-ceiling RESULT.json]
                   [--pgbench PGBENCH_OUTPUT] [--pgbench-rows 50] [--rss-kb N] [--baseline RESULT.json]
                   [--live-heap-mb N] [--bulkhead 16] [--summary-out FILE]
                   [--wrk WRK_OUTPUT] [--wrk-ceiling WRK_OUTPUT] [--origin-samples TSV] [--cpu-samples TSV]
                   or: BenchReport --median SUMMARY.md[,SUMMARY.md...] (one table: the median of several runs)""";
    private static final Set<String> OPTIONS = Set.of("origin", "accepted", "ingest", "scenario", "drain-start-ms",
            "drain-start-count", "wait", "http-ceiling", "pgbench", "pgbench-rows", "rss-kb", "baseline", "live-heap-mb",
            "bulkhead", "summary-out", "median", "wrk", "wrk-ceiling", "origin-samples", "cpu-samples");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern TPS = Pattern.compile("^tps = ([0-9.]+)", Pattern.MULTILINE);

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final URI origin;

    private BenchReport(URI origin) {
        this.origin = origin;
    }

    public static void main(String[] args) throws Exception {
        PrintWriter out = new PrintWriter(new OutputStreamWriter(new FileOutputStream(FileDescriptor.out),
                StandardCharsets.UTF_8), true);
        CliOptions o;
        try {
            o = CliOptions.parse(args, OPTIONS);
            if (o.helpRequested()) {
                out.println(USAGE);
                return;
            }
            if (o.get("median", null) != null) {
                List<Map<String, String>> runs = new ArrayList<>();
                for (String file : o.get("median", null).split(",")) {
                    runs.add(SummaryTable.parse(Files.readString(Path.of(file), StandardCharsets.UTF_8)));
                }
                out.print(SummaryTable.median(runs).render());
                out.flush();
                return;
            }
            o.required("origin");
            o.required("accepted");
            o.required("ingest");
        } catch (IllegalArgumentException e) {
            out.println("error: " + e.getMessage());
            out.println(USAGE);
            Runtime.getRuntime().exit(2);
            return;
        }
        SummaryTable table = new BenchReport(URI.create(o.required("origin"))).report(o, out);
        out.println();
        out.print(table.render());
        out.flush();
        String summaryOut = o.get("summary-out", null);
        if (summaryOut != null) {
            Files.writeString(Path.of(summaryOut), table.render(), StandardCharsets.UTF_8);
        }
        boolean proven = "0".equals(table.rows().get("lost")) && !"0".equals(table.rows().get("accepted ids"));
        if (!proven) {
            out.println("FAILED: " + ("0".equals(table.rows().get("accepted ids")) ? "nothing was accepted (202)"
                    : "acknowledged events never reached the origin"));
        }
        out.flush();
        Runtime.getRuntime().exit(proven ? 0 : 1);
    }

    private SummaryTable report(CliOptions o, PrintWriter out) throws Exception {
        Set<String> accepted = new HashSet<>();
        for (String file : o.required("accepted").split(",")) {
            accepted.addAll(Files.readAllLines(Path.of(file), StandardCharsets.UTF_8));
        }
        accepted.remove("");
        LoadResult ingest = JSON.readValue(Path.of(o.required("ingest")).toFile(), LoadResult.class);
        long drainStart = o.longValue("drain-start-ms", System.currentTimeMillis(), 0, Long.MAX_VALUE);
        out.printf("waiting for the origin to receive %d accepted events (it has %d distinct)%n", accepted.size(),
                stats().get("distinctEvents"));
        Duration wait = o.duration("wait", Duration.ofSeconds(300));
        long waitStarted = System.nanoTime();
        Map<String, Long> after = awaitDrain(accepted, wait, out);
        boolean drained = System.nanoTime() - waitStarted < wait.toNanos();
        LossCheck loss = LossCheck.compare(accepted, receivedKeys());
        if (loss.lost() > 0) {
            out.println("LOST (first " + loss.lostSample().size() + "): " + loss.lostSample());
        }
        SummaryTable table = new SummaryTable();
        table.row("scenario", o.get("scenario", ingest.label()));
        table.row("load", String.format(Locale.ROOT, "%s, %d connections, %d tenants, %.0f s measured",
                "open".equals(ingest.mode()) ? String.format(Locale.ROOT, "open model at %.0f/s", ingest.targetRate())
                        : "closed loop", ingest.connections(), ingest.tenants(), ingest.measuredSeconds()));
        table.row("accepted/s", number(ingest.acceptedPerSecond()));
        table.row("requests/s", number(ingest.requestsPerSecond()));
        table.row("statuses", ingest.statuses().toString().replace("{", "").replace("}", "")
                + (ingest.errors().isEmpty() ? "" : ", errors " + ingest.errors()) + (ingest.unsent() > 0
                        ? ", unsent " + ingest.unsent() : ""));
        table.row("p50 ack ms", decimal(ingest.latency().p50()));
        table.row("p99 ack ms", decimal(ingest.latency().p99()));
        table.row("p99.9 / max ack ms", decimal(ingest.latency().p999()) + " / " + decimal(ingest.latency().max()));
        hotTenantRows(o, ingest, table);
        drainRows(o.longValue("drain-start-count", 0, 0, Long.MAX_VALUE), after, drainStart, table);
        table.row("peak in flight at origin", after.get("peakInFlight") + " (bulkhead " + o.get("bulkhead", "16") + ")");
        String rss = o.get("rss-kb", null);
        table.row("server peak RSS MB", rss == null ? "n/a" : number(Long.parseLong(rss) / 1024.0));
        String liveHeap = o.get("live-heap-mb", null);
        if (liveHeap != null) {
            table.row("live heap after eviction MB", liveHeap);
        }
        table.row("drain complete", loss.lost() == 0 ? "yes" : drained ? "no"
                : "no: gave up after " + wait.toSeconds() + " s (lost counts what had not arrived by then)");
        table.row("accepted ids", Long.toString(loss.accepted()));
        table.row("lost", Long.toString(loss.lost()));
        table.row("delivered twice", Long.toString(after.get("duplicates")));
        table.row("order violations", Long.toString(after.get("orderViolations")));
        ceilingRows(o, ingest, table);
        shapeRows(o, ingest, table);
        return table;
    }

    private static void hotTenantRows(CliOptions o, LoadResult ingest, SummaryTable table) throws IOException {
        if (ingest.hotLatency().count() == 0) {
            return;
        }
        table.row("hot tenant p99 ack ms", decimal(ingest.hotLatency().p99()));
        table.row("quiet tenants p99 ack ms", decimal(ingest.quietLatency().p99()));
        String baselineFile = o.get("baseline", null);
        if (baselineFile != null) {
            LoadResult baseline = JSON.readValue(Path.of(baselineFile).toFile(), LoadResult.class);
            double without = baseline.latency().p99();
            table.row("quiet tenants p99 without the hot tenant ms", decimal(without));
            table.row("quiet p99 ratio (with / without)", without > 0 ? decimal(ingest.quietLatency().p99() / without)
                    : "n/a");
        }
    }

    /**
     * Drain rate and time. {@code drainStart} is when draining could begin (the draining buffer was launched, or the
     * origin came back), {@code deliveredBefore} how many distinct events the origin had then. The rate counts from
     * the first new event after that start, so a buffer's start-up time is in the time to drain but not in the rate.
     */
    private static void drainRows(long deliveredBefore, Map<String, Long> after, long drainStart,
            SummaryTable table) {
        long last = after.get("lastNewEventAtMillis");
        long first = deliveredBefore == 0 ? after.get("firstNewEventAtMillis") : drainStart;
        long delivered = after.get("distinctEvents") - deliveredBefore;
        table.row("drain events/s", last > first ? number(delivered * 1000.0 / (last - first)) : "n/a");
        table.row("time to drain s", last > drainStart ? decimal((last - drainStart) / 1000.0) : "0");
    }

    private static void ceilingRows(CliOptions o, LoadResult ingest, SummaryTable table) throws IOException {
        String httpFile = o.get("http-ceiling", null);
        if (httpFile != null) {
            LoadResult http = JSON.readValue(Path.of(httpFile).toFile(), LoadResult.class);
            table.row("HTTP ceiling req/s (trivial 202, same server)", number(http.acceptedPerSecond()));
            table.row("ratio to HTTP ceiling", ratio(ingest.acceptedPerSecond(), http.acceptedPerSecond()));
        }
        String pgbenchFile = o.get("pgbench", null);
        if (pgbenchFile != null) {
            int rowsPerTx = o.integer("pgbench-rows", 50, 1, 100_000);
            double rows = pgbenchTps(Files.readString(Path.of(pgbenchFile), StandardCharsets.UTF_8)) * rowsPerTx;
            table.row("commit ceiling rows/s (pgbench, " + rowsPerTx + "-row transactions)", number(rows));
            table.row("ratio to commit ceiling", ratio(ingest.acceptedPerSecond(), rows));
        }
    }

    /** The steady scenario's rows: its windows, the independent generator, the drain in the warm window. */
    private static void shapeRows(CliOptions o, LoadResult ingest, SummaryTable table) throws IOException {
        String httpFile = o.get("http-ceiling", null);
        LoadResult http = httpFile == null ? null : JSON.readValue(Path.of(httpFile).toFile(), LoadResult.class);
        String pgbenchFile = o.get("pgbench", null);
        double commit = pgbenchFile == null ? 0 : pgbenchTps(Files.readString(Path.of(pgbenchFile),
                StandardCharsets.UTF_8)) * o.integer("pgbench-rows", 50, 1, 100_000);
        ShapeRows.windows(ingest, http == null ? 0 : http.acceptedPerSecond(), commit, table);
        ShapeRows.wrk(pathOrNull(o.get("wrk", null)), pathOrNull(o.get("wrk-ceiling", null)), ingest, http, table);
        ShapeRows.drainInWarmWindow(pathOrNull(o.get("origin-samples", null)), ingest, table);
        ShapeRows.cpuInWarmWindow(pathOrNull(o.get("cpu-samples", null)), ingest, table);
    }

    private static Path pathOrNull(String p) {
        return p == null ? null : Path.of(p);
    }

    /** The transactions per second pgbench reported, or 0 when it reported none. */
    static double pgbenchTps(String output) {
        Matcher m = TPS.matcher(output);
        return m.find() ? Double.parseDouble(m.group(1)) : 0;
    }

    static String ratio(double ours, double ceiling) {
        return ceiling > 0 ? String.format(Locale.ROOT, "%.2f", ours / ceiling) : "n/a";
    }

    static String number(double v) {
        return String.format(Locale.ROOT, "%.0f", v);
    }

    static String decimal(double v) {
        return String.format(Locale.ROOT, "%.2f", v);
    }

    /**
     * Polls the origin until it has every accepted event or the wait runs out. A count is not enough: the origin may
     * also hold events whose 202 never reached the generator (stored, then the answer timed out), so the ids are
     * compared once the count is high enough.
     */
    private Map<String, Long> awaitDrain(Set<String> accepted, Duration wait, PrintWriter out) throws Exception {
        long deadline = System.nanoTime() + wait.toNanos();
        long lastReport = System.nanoTime();
        long lastCompare = 0;
        while (true) {
            Map<String, Long> stats = stats();
            if (stats.get("distinctEvents") >= accepted.size() && System.nanoTime() - lastCompare > 2_000_000_000L) {
                lastCompare = System.nanoTime();
                if (LossCheck.compare(accepted, receivedKeys()).lost() == 0) {
                    return stats;
                }
            }
            if (System.nanoTime() > deadline) {
                out.println("gave up waiting after " + wait.toSeconds() + " s");
                return stats;
            }
            if (System.nanoTime() - lastReport > 10_000_000_000L) {
                out.printf("  origin has %d distinct events%n", stats.get("distinctEvents"));
                lastReport = System.nanoTime();
            }
            Thread.sleep(250);
        }
    }

    private Map<String, Long> stats() throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(origin.resolve("/stats")).build(),
                HttpResponse.BodyHandlers.ofString());
        return JSON.readValue(response.body(), new TypeReference<Map<String, Long>>() {
        });
    }

    private Set<String> receivedKeys() throws IOException, InterruptedException {
        HttpResponse<InputStream> response = http.send(HttpRequest.newBuilder(origin.resolve("/ids")).build(),
                HttpResponse.BodyHandlers.ofInputStream());
        Set<String> keys = new HashSet<>();
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                keys.add(line);
            }
        }
        return keys;
    }
}
