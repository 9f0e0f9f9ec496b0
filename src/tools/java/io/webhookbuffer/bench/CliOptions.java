package io.webhookbuffer.bench;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/** {@code --name value} pairs of a benchmark command line, checked against the names a command knows. */
final class CliOptions {

    private final Map<String, String> values;

    private CliOptions(Map<String, String> values) {
        this.values = values;
    }

    static CliOptions parse(String[] args, Set<String> known) {
        if (args.length % 2 != 0) {
            throw new IllegalArgumentException("every option takes a value");
        }
        Map<String, String> values = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i += 2) {
            if (!args[i].startsWith("--") || !known.contains(args[i].substring(2))) {
                throw new IllegalArgumentException("unknown option " + args[i]);
            }
            values.put(args[i].substring(2), args[i + 1]);
        }
        return new CliOptions(values);
    }

    String get(String name, String fallback) {
        return values.getOrDefault(name, fallback);
    }

    String required(String name) {
        String value = values.get(name);
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("--" + name + " is required");
        }
        return value;
    }

    int integer(String name, int fallback, int min, int max) {
        long value = longValue(name, fallback, min, max);
        return (int) value;
    }

    long longValue(String name, long fallback, long min, long max) {
        String raw = values.get(name);
        long value;
        try {
            value = raw == null ? fallback : Long.parseLong(raw.replace("_", ""));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--" + name + " takes a whole number, not " + raw);
        }
        if (value < min || value > max) {
            throw new IllegalArgumentException("--" + name + " must be in [" + min + ", " + max + "], not " + value);
        }
        return value;
    }

    double decimal(String name, double fallback, double min, double max) {
        String raw = values.get(name);
        double value;
        try {
            value = raw == null ? fallback : Double.parseDouble(raw);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--" + name + " takes a number, not " + raw);
        }
        if (!(value >= min && value <= max)) {
            throw new IllegalArgumentException("--" + name + " must be in [" + min + ", " + max + "], not " + value);
        }
        return value;
    }

    /** {@code 30s}, {@code 500ms}, {@code 2m}, or plain seconds. */
    Duration duration(String name, Duration fallback) {
        String raw = values.get(name);
        if (raw == null) {
            return fallback;
        }
        try {
            if (raw.endsWith("ms")) {
                return Duration.ofMillis(Long.parseLong(raw.substring(0, raw.length() - 2)));
            }
            if (raw.endsWith("s")) {
                return Duration.ofMillis(Math.round(Double.parseDouble(raw.substring(0, raw.length() - 1)) * 1000));
            }
            if (raw.endsWith("m")) {
                return Duration.ofSeconds(Long.parseLong(raw.substring(0, raw.length() - 1)) * 60);
            }
            return Duration.ofMillis(Math.round(Double.parseDouble(raw) * 1000));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--" + name + " takes a duration like 30s or 500ms, not " + raw);
        }
    }
}
