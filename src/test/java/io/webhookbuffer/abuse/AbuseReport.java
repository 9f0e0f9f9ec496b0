package io.webhookbuffer.abuse;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

import io.webhookbuffer.torture.SignedLoad;

/** The figures of one abuse run and its table (printed, and written to target/abuse/summary.md). */
final class AbuseReport {

    static final List<String> HOSTILE_ROWS = List.of("broken HTTP", "bad chunking", "Content-Length lies",
            "huge and many headers", "odd paths and tenant ids", Hostile.UNKNOWN, "malformed signatures",
            "deeply nested JSON", Hostile.SIGNED_ODD, SlowConnections.HEADS, SlowConnections.BODIES, BigBodies.SMALL,
            BigBodies.UNKNOWN, BigBodies.LARGE);

    /** A window of the legitimate sender: its answers by status and its latency. */
    record Window(long sent, Map<Integer, Long> statuses, long p50, long p99, long max) {
        boolean allAccepted() {
            return statuses.keySet().stream().allMatch(s -> s == 202 || s == 200);
        }
    }

    final AbuseSettings settings;
    final Window quiet;
    final Window abused;
    /** Under abuse, after its {@code onset} (the JIT compiler's seconds): the steady cost of the abuse. */
    final Window settled;
    /** How sure the p99 ratio is: a bootstrap interval of it ({@link P99Ratio}). */
    final P99Ratio ratio;
    final Tally tally;
    final long hostileRequests;
    final long rssAtStart;
    final long rssMax;
    final long rssEnd;
    final String readyDuringAbuse;
    final String readyAfter;
    final boolean survived;
    final Map<String, long[]> stored;
    final long legit202;
    final long foreignLegitRows;
    final long errorLines;
    final long abuseMillis;
    private final String attackerPriority;
    private final List<SignedLoad.Answer> answers;
    private final long quietStart;
    /** Cores busy in each phase, and by whom ({@link CpuShare}). */
    private final String cpuQuiet;
    private final String cpuAbused;
    private final long abuseStart;
    private final long abuseEnd;

    AbuseReport(AbuseRun run, Map<String, long[]> stored, long foreignLegitRows, long errorLines, boolean survived) {
        this.settings = run.settings;
        List<SignedLoad.Answer> answers = run.legitAnswers;
        // The baseline leaves out the sender's first seconds: a cold start is not the quiet the abuse is compared with.
        long quietFrom = run.quietStart + run.settings.quietSettle.toMillis();
        this.quiet = window(answers, quietFrom, run.abuseStart);
        this.abused = window(answers, run.abuseStart, run.abuseEnd);
        this.settled = window(answers, run.abuseStart + run.settings.onset.toMillis(), run.abuseEnd);
        this.ratio = P99Ratio.of(latencies(answers, quietFrom, run.abuseStart),
                latencies(answers, run.abuseStart, run.abuseEnd),
                run.settings.p99Factor == 0 ? 2 : run.settings.p99Factor); // unasserted (0): against the 2x
        this.tally = run.tally;
        this.hostileRequests = HOSTILE_ROWS.stream().mapToLong(tally::total).sum();
        List<long[]> samples;
        synchronized (run.rss) {
            samples = List.copyOf(run.rss);
        }
        this.rssAtStart = samples.stream().filter(s -> s[0] <= run.abuseStart).mapToLong(s -> s[1]).reduce((a, b) -> b)
                .orElse(0);
        this.rssMax = samples.stream().mapToLong(s -> s[1]).max().orElse(0);
        this.rssEnd = samples.isEmpty() ? 0 : samples.get(samples.size() - 1)[1];
        this.readyDuringAbuse = run.readyDuringAbuse;
        this.readyAfter = run.readyAfter;
        this.survived = survived;
        this.stored = stored;
        this.legit202 = answers.stream().filter(a -> a.status() == 202).map(SignedLoad.Answer::eventId).distinct()
                .count();
        this.foreignLegitRows = foreignLegitRows;
        this.errorLines = errorLines;
        this.abuseMillis = run.abuseEnd - run.abuseStart;
        this.attackerPriority = run.attackerPriority;
        this.answers = answers;
        this.quietStart = run.quietStart;
        this.cpuQuiet = CpuShare.between(run.cpuQuiet, run.cpuAbuse);
        this.cpuAbused = CpuShare.between(run.cpuAbuse, run.cpuEnd);
        this.abuseStart = run.abuseStart;
        this.abuseEnd = run.abuseEnd;
    }

    /** Every answer of the legitimate sender: ms since the quiet phase began, phase, latency ms, status. */
    String legitCsv() {
        StringBuilder csv = new StringBuilder("sent_ms,phase,latency_ms,status\n");
        for (SignedLoad.Answer a : answers) {
            String phase = a.sentAt() < abuseStart ? "quiet" : a.sentAt() < abuseEnd ? "abuse" : "after";
            csv.append(a.sentAt() - quietStart).append(',').append(phase).append(',')
                    .append(a.answeredAt() - a.sentAt()).append(',').append(a.status()).append('\n');
        }
        return csv.toString();
    }

    /** Rows of the hostile tenants (every provisioned one but the legitimate and the signed-odd) and unknown ones. */
    Map<String, long[]> hostileStored(Hostile.Targets t) {
        Map<String, long[]> out = new LinkedHashMap<>(stored);
        out.remove(t.legit());
        out.remove(t.odd());
        out.values().removeIf(counts -> counts[0] + counts[1] + counts[2] == 0);
        return out;
    }

    long p99Bound() {
        return Math.round(settings.p99Factor * quiet.p99);
    }

    long settledP99Bound() {
        return Math.round(settings.settledP99Factor * quiet.p99);
    }

    long undeliberate5xx() {
        return HOSTILE_ROWS.stream().mapToLong(tally::undeliberate5xx).sum();
    }

    String summary() {
        StringBuilder md = new StringBuilder("## Abuse suite (")
                .append(settings.mode).append(")\n\n");
        md.append("Conditions: ").append(settings.describe()).append(".\n\n");
        // Wall-clock times, to match the legitimate sender's answers (legit.csv: ms since the quiet start) against
        // the service's log or a GC log of the run.
        md.append(String.format(Locale.ROOT, "Phases (UTC): quiet from %s, abuse from %s to %s.%n%n",
                Instant.ofEpochMilli(quietStart), Instant.ofEpochMilli(abuseStart), Instant.ofEpochMilli(abuseEnd)));
        md.append("| traffic | requests | 2xx | 4xx | 503 (deliberate) | other 5xx | closed, no answer | still open "
                + "| statuses | p50 ms | p99 ms |\n");
        md.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: |\n");
        legitRow(md, "legitimate sender, quiet", quiet);
        legitRow(md, "legitimate sender, under abuse", abused);
        legitRow(md, "legitimate sender, after the abuse's first " + settings.onset.toSeconds() + " s", settled);
        for (String row : HOSTILE_ROWS) {
            Map<Integer, Long> s = tally.of(row);
            md.append("| ").append(row).append(" | ").append(tally.total(row)).append(" | ")
                    .append(sum(s, 200, 299)).append(" | ").append(sum(s, 400, 499)).append(" | ")
                    .append(tally.deliberate503(row)).append(" | ").append(tally.undeliberate5xx(row)).append(" | ")
                    .append(s.getOrDefault(Tally.CLOSED, 0L)).append(" | ").append(s.getOrDefault(Tally.WAITING, 0L))
                    .append(" | ").append(statuses(s)).append(" | | |\n");
        }
        md.append("| **all hostile** | ").append(hostileRequests).append(" | | | | ").append(undeliberate5xx())
                .append(" | | | | | |\n\n");
        md.append(String.format(Locale.ROOT, "- legitimate sender: p99 %d ms under abuse vs %d ms quiet (%.1fx; bound "
                + "%s); all answers 202/200: %s%n", abused.p99, quiet.p99,
                quiet.p99 == 0 ? 0.0 : (double) abused.p99 / quiet.p99, settings.p99Factor == 0
                        ? "reported, not asserted at this size"
                        : String.format(Locale.ROOT, "%.0fx = %d ms", settings.p99Factor, p99Bound()),
                quiet.allAccepted() && abused.allAccepted()));
        md.append(String.format(Locale.ROOT, "- how sure that ratio is: the p99 under abuse is the %s-slowest of %d"
                + " answers (the quiet one: of %d); resampled %,d times, the ratio's 90%% interval is %.1f–%.1fx and"
                + " %.0f%% of the resamples are within %.0fx%n", ordinal(ratio.abusedRankFromSlowest()),
                ratio.abusedAnswers(), ratio.quietAnswers(), P99Ratio.RESAMPLES, ratio.low(), ratio.high(),
                100 * ratio.shareWithin(), ratio.factor()));
        if (settled.sent() == 0) {
            md.append(String.format(Locale.ROOT, "- after the abuse's first %d s (the JIT compiler's): none, the abuse"
                    + " lasted %.1f s%n", settings.onset.toSeconds(), (abuseEnd - abuseStart) / 1000.0));
        } else {
            md.append(String.format(Locale.ROOT, "- after the abuse's first %d s (the JIT compiler's): p99 %d ms"
                    + " (%.1fx; bound %s)%n", settings.onset.toSeconds(), settled.p99,
                    quiet.p99 == 0 ? 0.0 : (double) settled.p99 / quiet.p99, settings.settledP99Factor == 0
                            ? "reported" : String.format(Locale.ROOT, "%.0fx = %d ms", settings.settledP99Factor,
                                    settledP99Bound())));
        }
        md.append(String.format(Locale.ROOT, "- RSS (VmRSS): %d MiB when the abuse began, at most %d MiB, %d MiB at "
                + "the end; bound %d MiB%n", mib(rssAtStart), mib(rssMax), mib(rssEnd), mib(settings.rssBound)));
        md.append("- process alive to the end: ").append(survived).append("; /q/health/ready during the abuse ")
                .append(readyDuringAbuse).append(", after it ").append(readyAfter).append('\n');
        md.append("- stored: ").append(legit202).append(" legitimate events answered 202; rows of the legitimate "
                + "tenant with a foreign body: ").append(foreignLegitRows).append("; rows of hostile tenants: ")
                .append(stored.size() <= 2 ? "none" : "see the check").append('\n');
        md.append("- CPU, quiet: ").append(cpuQuiet).append("; under abuse: ").append(cpuAbused).append('\n');
        md.append("- ERROR lines in the service's log: ").append(errorLines).append('\n');
        md.append(String.format(Locale.ROOT, "- abuse phase %.1f s: %.0f hostile requests/s on average; the hostile "
                + "clients' JVM: %s%n", abuseMillis / 1000.0, hostileRequests * 1000.0 / Math.max(1, abuseMillis),
                attackerPriority));
        return md.toString();
    }

    private static void legitRow(StringBuilder md, String name, Window w) {
        md.append("| ").append(name).append(" | ").append(w.sent).append(" | ").append(sum(w.statuses, 200, 299))
                .append(" | ").append(sum(w.statuses, 400, 499)).append(" | ").append(w.statuses.getOrDefault(503, 0L))
                .append(" | ").append(sum(w.statuses, 500, 599) - w.statuses.getOrDefault(503, 0L)).append(" | ")
                .append(w.statuses.getOrDefault(SignedLoad.NO_ANSWER, 0L)).append(" | ")
                .append(w.statuses.getOrDefault(SignedLoad.TIMED_OUT, 0L)).append(" | ").append(statuses(w.statuses))
                .append(" | ").append(w.p50).append(" | ").append(w.p99).append(" |\n");
    }

    static Window window(List<SignedLoad.Answer> answers, long from, long to) {
        List<SignedLoad.Answer> in = answers.stream().filter(a -> a.sentAt() >= from && a.sentAt() < to).toList();
        Map<Integer, Long> statuses = in.stream().collect(Collectors.groupingBy(SignedLoad.Answer::status,
                TreeMap::new, Collectors.counting()));
        List<Long> latencies = in.stream().map(AbuseReport::latency).sorted().toList();
        return new Window(in.size(), statuses, percentile(latencies, 0.50), percentile(latencies, 0.99),
                latencies.isEmpty() ? 0 : latencies.get(latencies.size() - 1));
    }

    /** The latencies (ms) of the answers to requests sent in [from, to). */
    static List<Long> latencies(List<SignedLoad.Answer> answers, long from, long to) {
        return answers.stream().filter(a -> a.sentAt() >= from && a.sentAt() < to).map(AbuseReport::latency).toList();
    }

    private static long latency(SignedLoad.Answer a) {
        return a.answeredAt() - a.sentAt();
    }

    static long percentile(List<Long> sorted, double q) {
        if (sorted.isEmpty()) {
            return 0;
        }
        return sorted.get(P99Ratio.rank(sorted.size(), q) - 1);
    }

    private static long sum(Map<Integer, Long> statuses, int from, int to) {
        return statuses.entrySet().stream().filter(e -> e.getKey() >= from && e.getKey() <= to)
                .mapToLong(Map.Entry::getValue).sum();
    }

    private static String statuses(Map<Integer, Long> s) {
        return s.entrySet().stream().filter(e -> e.getKey() > 0).map(e -> e.getKey() + "×" + e.getValue())
                .collect(Collectors.joining(", "));
    }

    static String ordinal(int n) {
        int tens = n % 100;
        String suffix = tens >= 11 && tens <= 13 ? "th" : switch (n % 10) {
            case 1 -> "st";
            case 2 -> "nd";
            case 3 -> "rd";
            default -> "th";
        };
        return n + suffix;
    }

    static long mib(long bytes) {
        return bytes / (1024 * 1024);
    }
}
