package io.webhookbuffer.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The production-shape rows of the summary (the steady scenario): each {@code --windows} part of the load (cold, the
 * first seconds after readiness; warm, the steady state) with its ratios to the ceilings measured in the same run;
 * the independent generator's figures (wrk, same buffer, same shape) beside the lean generator's, so the harness's
 * own cost shows; and what the drain delivered during the warm window, from the origin's counts sampled once a second.
 */
final class ShapeRows {

    /** Linux's USER_HZ: /proc's CPU times are in these ticks per second. */
    private static final double CLOCK_TICKS = 100;
    private static final Pattern WRK = Pattern.compile("^wrk-result (.*)$", Pattern.MULTILINE);

    /** What one wrk run printed on its {@code wrk-result} line. */
    record WrkResult(long requests, double seconds, long duplicates, long non2xx, long errors, double p50, double p99,
            double max) {

        double acceptedPerSecond() {
            return (requests - duplicates - non2xx - errors) / seconds;
        }

        double requestsPerSecond() {
            return requests / seconds;
        }

        static WrkResult parse(String output) {
            Matcher m = WRK.matcher(output);
            if (!m.find()) {
                throw new IllegalArgumentException("no wrk-result line (is it bench/ingest.lua's output?)");
            }
            Map<String, String> values = new HashMap<>();
            for (String pair : m.group(1).trim().split("\\s+")) {
                String[] kv = pair.split("=", 2);
                values.put(kv[0], kv.length == 2 ? kv[1] : "");
            }
            return new WrkResult(Long.parseLong(values.get("requests")), Double.parseDouble(values.get("seconds")),
                    Long.parseLong(values.get("duplicates")), Long.parseLong(values.get("non2xx")),
                    Long.parseLong(values.get("errors")), Double.parseDouble(values.get("p50")),
                    Double.parseDouble(values.get("p99")), Double.parseDouble(values.get("max")));
        }
    }

    /**
     * One sample: when, how many distinct events the origin had, and the buffer's group-commit counters then (commits,
     * events they carried, seconds spent in them; 0 where the buffer did not answer).
     */
    record OriginSample(long epochMs, long distinctEvents, double commits, double committedEvents,
            double commitSeconds) {
    }

    private ShapeRows() {
    }

    /** A row per window: accepted/s, p99, its ratio to each ceiling; and cold over warm when both exist. */
    static void windows(LoadResult ingest, double httpCeiling, double commitCeiling, SummaryTable table) {
        if (ingest.windows() == null || ingest.windows().isEmpty()) {
            return;
        }
        if (ingest.readyAtEpochMs() > 0) {
            table.row("load started after readiness s",
                    BenchReport.decimal((ingest.measuredFromEpochMs() - ingest.readyAtEpochMs()) / 1000.0));
        }
        Map<String, LoadResult.Window> byName = new HashMap<>();
        for (LoadResult.Window w : ingest.windows()) {
            byName.put(w.name(), w);
            String name = w.name() + " (" + BenchReport.number(w.fromSeconds()) + "-" + BenchReport.number(w.toSeconds()) + " s)";
            table.row(name + " accepted/s", BenchReport.number(w.acceptedPerSecond()));
            table.row(name + " p50 ack ms", BenchReport.decimal(w.latency().p50()));
            table.row(name + " p99 ack ms", BenchReport.decimal(w.latency().p99()));
            table.row(name + " ratio to commit ceiling", BenchReport.ratio(w.acceptedPerSecond(), commitCeiling));
            table.row(name + " ratio to HTTP ceiling", BenchReport.ratio(w.acceptedPerSecond(), httpCeiling));
        }
        LoadResult.Window cold = byName.get("cold");
        LoadResult.Window warm = byName.get("warm");
        if (cold != null && warm != null) {
            table.row("cold / warm accepted", BenchReport.ratio(cold.acceptedPerSecond(), warm.acceptedPerSecond()));
        }
    }

    /** The independent generator's rows, with the lean generator's figure over wrk's for the same target. */
    static void wrk(Path ingestFile, Path ceilingFile, LoadResult ingest, LoadResult leanCeiling, SummaryTable table)
            throws IOException {
        LoadResult.Window warm = window(ingest, "warm");
        if (ingestFile != null) {
            WrkResult w = WrkResult.parse(Files.readString(ingestFile, StandardCharsets.UTF_8));
            table.row("wrk, right after: accepted/s", BenchReport.number(w.acceptedPerSecond()));
            table.row("wrk p50 ack ms", BenchReport.decimal(w.p50()));
            table.row("wrk p99 ack ms", BenchReport.decimal(w.p99()));
            table.row("wrk statuses", "non-2xx " + w.non2xx() + ", socket errors " + w.errors() + ", duplicates sent "
                    + w.duplicates());
            if (warm != null) {
                table.row("lean generator warm / wrk accepted",
                        BenchReport.ratio(warm.acceptedPerSecond(), w.acceptedPerSecond()));
            }
        }
        if (ceilingFile != null) {
            WrkResult c = WrkResult.parse(Files.readString(ceilingFile, StandardCharsets.UTF_8));
            table.row("wrk HTTP ceiling req/s", BenchReport.number(c.requestsPerSecond()));
            if (leanCeiling != null) {
                table.row("lean generator / wrk HTTP ceiling", BenchReport.ratio(leanCeiling.acceptedPerSecond(),
                        c.requestsPerSecond()));
            }
        }
    }

    /** What reached the origin during the warm window, per second, over what the buffer accepted in it. */
    static void drainInWarmWindow(Path samplesFile, LoadResult ingest, SummaryTable table) throws IOException {
        LoadResult.Window warm = window(ingest, "warm");
        if (samplesFile == null || warm == null) {
            return;
        }
        List<OriginSample> samples = samples(Files.readAllLines(samplesFile, StandardCharsets.UTF_8));
        long from = ingest.measuredFromEpochMs() + (long) (warm.fromSeconds() * 1000);
        long to = ingest.measuredFromEpochMs() + (long) (warm.toSeconds() * 1000);
        double delivered = deliveredPerSecond(samples, from, to);
        table.row("drain in warm window events/s", delivered < 0 ? "n/a" : BenchReport.number(delivered));
        if (delivered >= 0) {
            table.row("drain / accepted in warm window", BenchReport.ratio(delivered, warm.acceptedPerSecond()));
        }
        OriginSample a = closestSample(samples, from);
        OriginSample b = closestSample(samples, to);
        if (a != null && b.commits() > a.commits()) {
            double commits = b.commits() - a.commits();
            table.row("group commits in warm window: per second / events each / mean ms", String.format(Locale.ROOT,
                    "%.0f / %.1f / %.2f", commits * 1000.0 / (b.epochMs() - a.epochMs()),
                    (b.committedEvents() - a.committedEvents()) / commits,
                    (b.commitSeconds() - a.commitSeconds()) * 1000 / commits));
        }
    }

    /**
     * Where the warm window's CPU went, in cores, from {@code bench/run.sh}'s once-a-second samples of clock ticks
     * (idle for the machine; buffer, generator, origin, PostgreSQL per process), and the buffer's core-µs per event.
     */
    /** epoch ms, idle, buffer (every replica), generator, origin, PostgreSQL, and the balancer when there is one. */
    private static final int CPU_COLUMNS = 7;

    static void cpuInWarmWindow(Path samplesFile, LoadResult ingest, SummaryTable table) throws IOException {
        LoadResult.Window warm = window(ingest, "warm");
        if (samplesFile == null || warm == null) {
            return;
        }
        List<long[]> rows = cpuRows(Files.readAllLines(samplesFile, StandardCharsets.UTF_8));
        long from = ingest.measuredFromEpochMs() + (long) (warm.fromSeconds() * 1000);
        long to = ingest.measuredFromEpochMs() + (long) (warm.toSeconds() * 1000);
        // Inside the window, never after it: the generator's JVM exits as the window ends, and a sample of a process
        // that has gone reads 0.
        long[] a = first(rows, from, to);
        long[] b = last(rows, from, to);
        if (a == null || b[0] <= a[0]) {
            return;
        }
        double seconds = (b[0] - a[0]) / 1000.0;
        double[] cores = new double[CPU_COLUMNS];
        for (int i = 1; i < CPU_COLUMNS; i++) {
            cores[i] = (b[i] - a[i]) / (CLOCK_TICKS * seconds);
        }
        table.row("CPU in warm window, cores (buffer / generator / origin / PostgreSQL / idle)",
                String.format(Locale.ROOT, "%.2f / %.2f / %.2f / %.2f / %.2f", cores[2], cores[3], cores[4], cores[5],
                        cores[1]));
        if (cores[6] > 0) {
            table.row("CPU of the balancer (HAProxy) in warm window, cores", String.format(Locale.ROOT, "%.2f", cores[6]));
        }
        table.row("buffer core-µs per accepted event, warm", warm.acceptedPerSecond() > 0
                ? BenchReport.number(cores[2] * 1e6 / warm.acceptedPerSecond()) : "n/a");
    }

    /** The sampler's lines as numbers (a process not running yet counts 0); the header is skipped. */
    static List<long[]> cpuRows(List<String> lines) {
        List<long[]> rows = new ArrayList<>();
        for (String line : lines) {
            String[] f = line.split("\t", -1);
            if (f.length < CPU_COLUMNS - 1 || f.length > CPU_COLUMNS || f[0].isEmpty()
                    || !Character.isDigit(f[0].charAt(0))) {
                continue;
            }
            long[] row = new long[CPU_COLUMNS]; // the balancer's column is there only with replicas behind one
            for (int i = 0; i < f.length; i++) {
                row[i] = f[i].isBlank() ? 0 : Long.parseLong(f[i].strip());
            }
            rows.add(row);
        }
        return rows;
    }

    private static OriginSample closestSample(List<OriginSample> samples, long epochMs) {
        OriginSample best = null;
        for (OriginSample s : samples) {
            if (best == null || Math.abs(s.epochMs() - epochMs) < Math.abs(best.epochMs() - epochMs)) {
                best = s;
            }
        }
        return best;
    }

    /** The first sample taken in [from, to], or null. */
    static long[] first(List<long[]> rows, long from, long to) {
        for (long[] r : rows) {
            if (r[0] >= from && r[0] <= to) {
                return r;
            }
        }
        return null;
    }

    /** The last sample taken in [from, to], or null. */
    static long[] last(List<long[]> rows, long from, long to) {
        long[] found = null;
        for (long[] r : rows) {
            if (r[0] >= from && r[0] <= to) {
                found = r;
            }
        }
        return found;
    }

    private static LoadResult.Window window(LoadResult ingest, String name) {
        return ingest.windows() == null ? null
                : ingest.windows().stream().filter(w -> w.name().equals(name)).findFirst().orElse(null);
    }

    static List<OriginSample> samples(List<String> lines) {
        List<OriginSample> samples = new ArrayList<>();
        for (String line : lines) {
            String[] f = line.split("\t", -1);
            if (f.length >= 2 && !f[0].isBlank() && Character.isDigit(f[0].charAt(0)) && !f[1].isBlank()) {
                samples.add(new OriginSample(Long.parseLong(f[0]), Long.parseLong(f[1]), field(f, 2), field(f, 3),
                        field(f, 4)));
            }
        }
        return samples;
    }

    private static double field(String[] f, int i) {
        return i < f.length && !f[i].isBlank() ? Double.parseDouble(f[i]) : 0;
    }

    /** The origin's distinct-event rate between the samples closest to {@code from} and {@code to}; -1 if none. */
    static double deliveredPerSecond(List<OriginSample> samples, long from, long to) {
        OriginSample first = closestSample(samples, from);
        OriginSample last = closestSample(samples, to);
        if (first == null || last.epochMs() <= first.epochMs()) {
            return -1;
        }
        return (last.distinctEvents() - first.distinctEvents()) * 1000.0 / (last.epochMs() - first.epochMs());
    }
}
