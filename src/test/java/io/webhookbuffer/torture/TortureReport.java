package io.webhookbuffer.torture;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

import io.webhookbuffer.torture.SignedLoad.Answer;
import io.webhookbuffer.torture.TortureRun.DeadLetter;
import io.webhookbuffer.torture.TortureRun.Fault;

/**
 * What a torture run showed: the table (one row per phase: the warm-up, then each fault with the settle time after
 * it) and the findings the checks assert. An answer belongs to the phase in which it came back, a dead letter to the
 * phase in which it was moved (the fault that caused it), a lost event to the phase of its first 202.
 */
final class TortureReport {

    /** The answers a sender may get while the service runs: stored, duplicate, slow down, try again. */
    static final Set<Integer> ALLOWED = Set.of(200, 202, 429, 503);

    /** One phase of the run, as a table row. */
    record Row(String name, long windowMillis, int answers, int unavailable, int noAnswer, int other,
            long recoveryMillis, long deliveryMillis, int deadLetters, int lost) {
    }

    private final TortureSettings settings;
    private final List<Fault> faults;
    private final long loadStart;
    private final long loadEnd;
    private final List<Answer> answers;
    private final long skipped;
    private final Map<Integer, Long> originAnswers;
    private final long originEvents;
    private final List<DeadLetter> deadLetters;
    private final Set<String> poisons;
    private final long leftInQueue;
    private final long drainMillis;
    private final Map<Path, String> logs;
    private final Map<String, String> secrets;
    private final List<String> notes;
    /** tenant TAB eventId → when its first 202 came back. */
    private final Map<String, Long> stored = new HashMap<>();
    private final Set<String> lost = new HashSet<>();
    private final List<Row> rows = new ArrayList<>();

    TortureReport(TortureSettings settings, List<Fault> faults, long loadStart, long loadEnd, List<Answer> answers,
            long skipped, TortureOrigin origin, List<DeadLetter> deadLetters, Set<String> poisons, long leftInQueue,
            long drainMillis, Map<Path, String> logs, Map<String, String> secrets, List<String> notes) {
        this.settings = settings;
        this.faults = faults;
        this.loadStart = loadStart;
        this.loadEnd = loadEnd;
        this.answers = answers;
        this.skipped = skipped;
        this.originAnswers = origin.answers();
        this.originEvents = origin.eventsAccepted();
        this.deadLetters = deadLetters;
        this.poisons = poisons;
        this.leftInQueue = leftInQueue;
        this.drainMillis = drainMillis;
        this.logs = logs;
        this.secrets = secrets;
        this.notes = notes;
        for (Answer a : answers) {
            if (a.status() == 202) {
                stored.merge(TortureOrigin.key(a.tenant(), a.eventId()), a.answeredAt(), Math::min);
            }
        }
        Set<String> known = new HashSet<>(origin.accepted());
        deadLetters.forEach(d -> known.add(TortureOrigin.key(d.tenant(), d.eventId())));
        stored.keySet().stream().filter(k -> !known.contains(k)).forEach(lost::add);
        buildRows(origin);
    }

    // ---- findings, one per check ----

    /** Distinct events answered 202. */
    int storedEvents() {
        return stored.size();
    }

    /** Events answered 202 that are neither at the origin nor in dead_letters. */
    List<String> lost() {
        return lost.stream().sorted().toList();
    }

    /** Dead letters other than the two poison events. */
    List<DeadLetter> unexpectedDeadLetters() {
        return deadLetters.stream().filter(d -> !poisons.contains(TortureOrigin.key(d.tenant(), d.eventId())))
                .toList();
    }

    /** Poison events that did not end in dead_letters. */
    Set<String> poisonsNotDeadLettered() {
        Set<String> missing = new HashSet<>(poisons);
        deadLetters.forEach(d -> missing.remove(TortureOrigin.key(d.tenant(), d.eventId())));
        return missing;
    }

    /** Answers outside {@link #ALLOWED} (no answer included) not overlapping a window where the process was down. */
    Map<Integer, Long> disallowedAnswers() {
        return answers.stream().filter(a -> !ALLOWED.contains(a.status()) && !inDownWindow(a))
                .collect(Collectors.groupingBy(Answer::status, TreeMap::new, Collectors.counting()));
    }

    /** Faults whose first 202 after the end came later than the bound (or never): name → ms (-1: none). */
    Map<String, Long> slowRecoveries() {
        Map<String, Long> slow = new LinkedHashMap<>();
        for (int i = 0; i < faults.size(); i++) {
            Fault f = faults.get(i);
            long recovery = rows.get(i + 1).recoveryMillis();
            if (f.recovers() && (recovery < 0 || recovery > settings.recoveryBound.toMillis())) {
                slow.put(f.name(), recovery);
            }
        }
        return slow;
    }

    /** "what secret in which log" for every secret found in a service log. */
    List<String> secretsInLogs() {
        List<String> found = new ArrayList<>();
        logs.forEach((path, text) -> secrets.forEach((what, value) -> {
            if (text.contains(value)) {
                found.add(what + " in " + path);
            }
        }));
        return found;
    }

    /** The ERROR lines of the service's logs. */
    List<String> errorLines() {
        List<String> lines = new ArrayList<>();
        logs.values().forEach(text -> text.lines().filter(l -> l.contains(" ERROR ")).forEach(lines::add));
        return lines;
    }

    List<String> notes() {
        return notes;
    }

    long leftInQueue() {
        return leftInQueue;
    }

    // ---- the table ----

    String table() {
        StringBuilder out = new StringBuilder();
        out.append("| fault | window s | answers | 503 | no answer | other | fault end → first 202 s "
                + "| fault end → first delivery s | dead letters | lost |\n");
        out.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
        int answered = 0;
        int unavailable = 0;
        int noAnswer = 0;
        int other = 0;
        int dead = 0;
        int lostTotal = 0;
        for (Row r : rows) {
            out.append("| ").append(r.name()).append(" | ").append(secondsOrDash(r.windowMillis())).append(" | ")
                    .append(r.answers()).append(" | ").append(r.unavailable()).append(" | ").append(r.noAnswer())
                    .append(" | ").append(r.other()).append(" | ").append(secondsOrDash(r.recoveryMillis()))
                    .append(" | ").append(secondsOrDash(r.deliveryMillis())).append(" | ").append(r.deadLetters())
                    .append(" | ").append(r.lost()).append(" |\n");
            answered += r.answers();
            unavailable += r.unavailable();
            noAnswer += r.noAnswer();
            other += r.other();
            dead += r.deadLetters();
            lostTotal += r.lost();
        }
        out.append("| **all** | ").append(seconds(loadEnd - loadStart)).append(" | ").append(answered).append(" | ")
                .append(unavailable).append(" | ").append(noAnswer).append(" | ").append(other)
                .append(" | | | ").append(dead).append(" | ").append(lostTotal).append(" |\n");
        return out.toString();
    }

    /** The table with the run's conditions and the figures beside it, as printed and written to summary.md. */
    String summary() {
        StringBuilder out = new StringBuilder();
        out.append("## torture run ").append(Instant.ofEpochMilli(loadStart)).append("\n\n");
        settings.describe().forEach((k, v) -> out.append("- ").append(k).append(": ").append(v).append('\n'));
        out.append("- machine: ").append(Runtime.getRuntime().availableProcessors()).append(" cores (")
                .append(cpuModel()).append("), Java ").append(System.getProperty("java.version")).append(", ")
                .append(System.getProperty("os.name")).append(' ').append(System.getProperty("os.arch"))
                .append("; commit ").append(commit()).append('\n');
        out.append("\n").append(table()).append('\n');
        out.append("- events answered 202: ").append(stored.size()).append("; requests not sent (").append(
                "in-flight cap): ").append(skipped).append("; origin accepted ").append(originEvents)
                .append(" events (duplicates included); origin answers by status: ").append(originAnswers)
                .append('\n');
        out.append("- drain after the load: ").append(seconds(drainMillis)).append(" s, ").append(leftInQueue)
                .append(" event(s) left queued; dead letters: ").append(deadLetters.size()).append(" (")
                .append(unexpectedDeadLetters().size()).append(" besides the poisons)\n");
        out.append("- service ERROR log lines: ").append(errorLines().size()).append('\n');
        notes.forEach(n -> out.append("- note: ").append(n).append('\n'));
        return out.toString();
    }

    private void buildRows(TortureOrigin origin) {
        long firstFault = faults.isEmpty() ? loadEnd : faults.get(0).start();
        rows.add(row("steady load, no fault", loadStart, firstFault, firstFault - loadStart, -1, -1));
        for (int i = 0; i < faults.size(); i++) {
            Fault f = faults.get(i);
            long phaseEnd = i == faults.size() - 1 ? Long.MAX_VALUE : faults.get(i + 1).start();
            long recovery = -1;
            long delivery = -1;
            if (f.recovers()) {
                long first = firstStoredAtOrAfter(f.end());
                recovery = first < 0 ? -1 : first - f.end();
                long accepted = origin.firstAcceptanceAtOrAfter(f.end());
                delivery = accepted < 0 ? -1 : accepted - f.end();
            }
            rows.add(row(f.name(), f.start(), phaseEnd, f.end() - f.start(), recovery, delivery));
        }
    }

    private Row row(String name, long from, long to, long window, long recovery, long delivery) {
        int count = 0;
        int unavailable = 0;
        int noAnswer = 0;
        int other = 0;
        for (Answer a : answers) {
            if (a.answeredAt() >= from && a.answeredAt() < to) {
                count++;
                if (a.status() == 503) {
                    unavailable++;
                } else if (a.status() < 0) {
                    noAnswer++;
                } else if (!ALLOWED.contains(a.status())) {
                    other++;
                }
            }
        }
        int deadHere = (int) deadLetters.stream().filter(d -> d.deadAt() >= from && d.deadAt() < to).count();
        int lostHere = 0;
        for (Map.Entry<String, Long> e : stored.entrySet()) {
            if (e.getValue() >= from && e.getValue() < to && lost.contains(e.getKey())) {
                lostHere++;
            }
        }
        return new Row(name, window, count, unavailable, noAnswer, other, recovery, delivery, deadHere, lostHere);
    }

    private long firstStoredAtOrAfter(long millis) {
        long first = Long.MAX_VALUE;
        for (Answer a : answers) {
            if (a.status() == 202 && a.answeredAt() >= millis && a.answeredAt() < first) {
                first = a.answeredAt();
            }
        }
        return first == Long.MAX_VALUE ? -1 : first;
    }

    private boolean inDownWindow(Answer a) {
        return faults.stream().anyMatch(f -> f.processDown() && a.sentAt() <= f.end() && a.answeredAt() >= f.start());
    }

    private static String cpuModel() {
        try {
            return Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(l -> l.startsWith("model name"))
                    .map(l -> l.substring(l.indexOf(':') + 1).strip()).findFirst().orElse("cpu unknown");
        } catch (IOException e) {
            return "cpu unknown";
        }
    }

    /** The checkout's commit, "+changes" when the working tree differs from it. */
    private static String commit() {
        try {
            Process head = new ProcessBuilder("git", "rev-parse", "--short", "HEAD").redirectErrorStream(true).start();
            String hash = new String(head.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            Process diff = new ProcessBuilder("git", "diff", "--quiet", "HEAD").start();
            return head.waitFor() == 0 ? hash + (diff.waitFor() == 0 ? "" : "+changes") : "unknown";
        } catch (IOException e) {
            return "unknown";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "unknown";
        }
    }

    private static String secondsOrDash(long millis) {
        return millis < 0 ? "—" : seconds(millis);
    }

    private static String seconds(long millis) {
        return String.format(Locale.ROOT, "%.2f", millis / 1000.0);
    }
}
