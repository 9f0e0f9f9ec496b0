package io.webhookbuffer.bench;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The benchmark's one summary table: a Markdown table of {@code | metric | value |} rows, so the same text is read
 * by people, pasted into README, and parsed back by scripts ({@link #parse}).
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
