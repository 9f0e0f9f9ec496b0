package io.webhookbuffer.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The benchmark's one summary table: a Markdown table of {@code | metric | value |} rows, so the same text is read
 * by people, pasted into docs/performance.md, and parsed back by scripts ({@link #parse}).
 */
final class SummaryTable {

    private static final Pattern ROW = Pattern.compile("^\\| (.+?) \\| (.*?) \\|$", Pattern.MULTILINE);
    private final Map<String, String> rows = new LinkedHashMap<>();

    SummaryTable row(String metric, String value) {
        if (metric.contains("|") || value.contains("|")) {
            throw new IllegalArgumentException("a cell cannot contain |");
        }
        rows.put(metric, value);
        return this;
    }

    Map<String, String> rows() {
        return rows;
    }

    String render() {
        StringBuilder s = new StringBuilder("| metric | value |\n| --- | --- |\n");
        rows.forEach((k, v) -> s.append("| ").append(k).append(" | ").append(v).append(" |\n"));
        return s.toString();
    }

    /**
     * One table for several runs: a row whose values are all numbers gets their median (and the range), any other
     * row its value when all runs agree, else every run's value in order.
     */
    static SummaryTable median(List<Map<String, String>> runs) {
        SummaryTable table = new SummaryTable();
        table.row("runs", Integer.toString(runs.size()));
        Map<String, List<String>> columns = new LinkedHashMap<>();
        for (Map<String, String> run : runs) {
            run.forEach((k, v) -> columns.computeIfAbsent(k, x -> new ArrayList<>()).add(v));
        }
        columns.forEach((metric, values) -> table.row(metric, combine(values)));
        return table;
    }

    private static String combine(List<String> values) {
        List<Double> numbers = new ArrayList<>();
        for (String v : values) {
            try {
                numbers.add(Double.parseDouble(v));
            } catch (NumberFormatException e) {
                return values.stream().distinct().count() == 1 ? values.get(0) : String.join(" ; ", values);
            }
        }
        if (numbers.size() == 1) {
            return values.get(0);
        }
        List<Double> sorted = numbers.stream().sorted().toList();
        int n = sorted.size();
        double median = n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
        return format(median) + " (" + format(sorted.get(0)) + "–" + format(sorted.get(n - 1)) + ")";
    }

    private static String format(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : String.format(Locale.ROOT, "%.2f", v);
    }

    /** The rows of a rendered table (the header and separator rows are skipped). */
    static Map<String, String> parse(String text) {
        Map<String, String> parsed = new LinkedHashMap<>();
        Matcher m = ROW.matcher(text);
        while (m.find()) {
            String metric = m.group(1).strip();
            if (!metric.equals("metric") && !metric.startsWith("---")) {
                parsed.put(metric, m.group(2).strip());
            }
        }
        return parsed;
    }
}
