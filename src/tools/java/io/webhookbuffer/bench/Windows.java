package io.webhookbuffer.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

import org.HdrHistogram.Recorder;

/**
 * Named parts of one load, measured on their own ({@code --windows cold=0-15,warm=45-60}: seconds after the measured
 * start). The production-shape run reports the first seconds after readiness apart from the steady state, and a
 * percentile of the whole run cannot be split afterwards, so each window keeps its own histogram and counts. A request
 * belongs to the window its send time falls in; its answer may come after the window ends.
 */
final class Windows {

    /** One window: {@code [from, to)} in nanoseconds after the measured start. */
    record Spec(String name, long fromNanos, long toNanos) {
    }

    private final List<Spec> specs;
    private final Recorder[] latency;
    private final LongAdder[] answered;
    private final LongAdder[] accepted;

    private Windows(List<Spec> specs) {
        this.specs = specs;
        this.latency = new Recorder[specs.size()];
        this.answered = new LongAdder[specs.size()];
        this.accepted = new LongAdder[specs.size()];
        for (int i = 0; i < specs.size(); i++) {
            latency[i] = new Recorder(3);
            answered[i] = new LongAdder();
            accepted[i] = new LongAdder();
        }
    }

    static Windows none() {
        return new Windows(List.of());
    }

    /** {@code name=from-to[,name=from-to...]}, whole seconds, each window non-empty; null or blank: none. */
    static Windows parse(String text) {
        if (text == null || text.isBlank()) {
            return none();
        }
        List<Spec> specs = new ArrayList<>();
        for (String part : text.split(",")) {
            String[] nameRange = part.strip().split("=", 2);
            String[] range = nameRange.length == 2 ? nameRange[1].split("-", 2) : new String[0];
            if (range.length != 2 || nameRange[0].isBlank()) {
                throw new IllegalArgumentException("--windows takes name=from-to[,...] in seconds, not " + part);
            }
            long from = seconds(range[0], part);
            long to = seconds(range[1], part);
            if (to <= from) {
                throw new IllegalArgumentException("--windows: " + part + " ends before it starts");
            }
            specs.add(new Spec(nameRange[0].strip(), TimeUnit.SECONDS.toNanos(from), TimeUnit.SECONDS.toNanos(to)));
        }
        return new Windows(List.copyOf(specs));
    }

    private static long seconds(String value, String part) {
        try {
            long s = Long.parseLong(value.strip());
            if (s < 0) {
                throw new NumberFormatException();
            }
            return s;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--windows: " + part + " needs whole seconds ≥ 0");
        }
    }

    /** The latest end of any window, in nanoseconds (0 when there are none): the load must last that long. */
    long endNanos() {
        return specs.stream().mapToLong(Spec::toNanos).max().orElse(0);
    }

    /** An answer to a request sent {@code sentNanos} after the measured start. */
    void record(long sentNanos, int status, long latencyMicros) {
        for (int i = 0; i < specs.size(); i++) {
            Spec s = specs.get(i);
            if (sentNanos >= s.fromNanos() && sentNanos < s.toNanos()) {
                latency[i].recordValue(latencyMicros);
                answered[i].increment();
                if (status == 202) {
                    accepted[i].increment();
                }
            }
        }
    }

    List<LoadResult.Window> results() {
        List<LoadResult.Window> results = new ArrayList<>();
        for (int i = 0; i < specs.size(); i++) {
            Spec s = specs.get(i);
            double seconds = (s.toNanos() - s.fromNanos()) / 1e9;
            results.add(new LoadResult.Window(s.name(), s.fromNanos() / 1e9, s.toNanos() / 1e9,
                    answered[i].sum() / seconds, accepted[i].sum() / seconds,
                    LoadResult.Latency.of(latency[i].getIntervalHistogram())));
        }
        return results;
    }
}
