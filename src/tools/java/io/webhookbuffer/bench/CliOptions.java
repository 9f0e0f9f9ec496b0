package io.webhookbuffer.bench;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

/**
 * The options of a benchmark command line, {@code --name value} each, parsed by picocli against the names a command
 * knows (an unknown name or a missing value is a usage error; of a name given twice the last value counts), then read
 * here with the bounds and units each command checks. {@code --help} (or {@code -h}) asks for the usage text.
 */
final class CliOptions {

    private final Map<String, String> values;
    private final boolean help;

    private CliOptions(Map<String, String> values, boolean help) {
        this.values = values;
        this.help = help;
    }

    /** @throws IllegalArgumentException with picocli's reason when the line does not parse */
    static CliOptions parse(String[] args, Set<String> known) {
        CommandSpec spec = CommandSpec.create();
        OptionSpec help = OptionSpec.builder("--help", "-h").usageHelp(true).type(boolean.class).arity("0")
                .build();
        spec.addOption(help);
        for (String name : known) {
            spec.addOption(OptionSpec.builder("--" + name).type(String.class).arity("1").paramLabel("VALUE").build());
        }
        ParseResult parsed;
        try {
            // As a script sets defaults and then passes the caller's options on: the last value given wins.
            parsed = new CommandLine(spec).setOverwrittenOptionsAllowed(true).parseArgs(args);
        } catch (ParameterException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        Map<String, String> values = new LinkedHashMap<>();
        for (OptionSpec option : parsed.matchedOptions()) {
            if (option != help) {
                values.put(option.longestName().substring(2), option.getValue());
            }
        }
        return new CliOptions(values, parsed.isUsageHelpRequested());
    }

    /** The line asked for the usage text ({@code --help}): the command prints it and does nothing else. */
    boolean helpRequested() {
        return help;
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
