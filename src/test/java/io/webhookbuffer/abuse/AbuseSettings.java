package io.webhookbuffer.abuse;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * The abuse suite's knobs: the system property {@code abuse.<name>} or the environment variable {@code ABUSE_<NAME>}
 * (upper case, {@code -} becomes {@code _}); unset, the CI default, or with {@code abuse.mode=full} the full run's, or
 * with {@code abuse.mode=uploads} the done-when shape (the full run's uploads alone, to the 1 KiB tenant and
 * to unknown tenants, thirty rounds, nothing else hostile).
 * Durations in seconds. docs/abuse.md lists them.
 */
final class AbuseSettings {

    /** deploy/Dockerfile's JAVA_TOOL_OPTIONS, with the heap the image's 65 % gives k8s/deployment.yaml's 768 Mi limit. */
    static final List<String> IMAGE_JVM = List.of("-Xmx499m", "-Xms384m", "-XX:+ExitOnOutOfMemoryError",
            "-XX:+UseG1GC", "-Djava.util.logging.manager=org.jboss.logmanager.LogManager");
    static final long POD_LIMIT_BYTES = 768L * 1024 * 1024;

    /** {@code ci}, {@code full} or {@code uploads}: which column of defaults ({@code abuse.mode}). */
    final String mode;
    /** The full run's sizes (also in {@code uploads} mode, where the flood and the slow connections are off). */
    final boolean full;
    /** The done-when shape: 64 connections pushing 15 MB unsigned bodies to a small-limit tenant and unknown ones. */
    final boolean uploads;
    final int legitRate;
    final Duration quiet;
    /** The sender's first seconds (its own JVM and the buffer's first requests, still compiling): not in the baseline. */
    final Duration quietSettle;
    final int hostile;
    final int hostileRate;
    final int hostileConcurrency;
    /** One hostile request in this many is to an unknown tenant (3: a third; 1: all; 0: none, the catalogue only). */
    final int hostileUnknownEvery;
    /** The catalogue's kinds the flood sends ({@link Hostile#GROUPS}; empty, the default: all of them). */
    final List<String> hostileGroups;
    final int slow;
    final Duration slowHold;
    final int big;
    final int bigRounds;
    final int bigBytes;
    /**
     * Whom the oversized bodies go to, in turn: {@code small} (the 1 KiB tenant), {@code unknown}, {@code large} (the
     * 25 MiB tenant, whose bodies are read whole and verified). The done-when names the first two.
     */
    final List<String> bigTargets;
    /**
     * Rounds of the oversized bodies sent before the quiet phase, neither counted nor timed (0 by default): the abuse
     * then meets a replica that has refused such uploads before, not one meeting its first (bench/results/abuse-log.md).
     */
    final int prewarmRounds;
    final long rssBound;
    /**
     * The legitimate sender's p99 under abuse may be at most this many times its quiet p99 (full run: 5, over the JIT
     * compiler's onset too; uploads: the 2);
     * 0: reported, not asserted (the CI size, on cores shared with the build and the hostile clients).
     */
    final double p99Factor;
    /** The abuse's first seconds, where the JIT compiler recompiles the shared HTTP path for the new mix of requests. */
    final Duration onset;
    /**
     * The sender's p99 under abuse after the {@link #onset} may be at most this many times its quiet p99; 0: reported,
     * not asserted.
     */
    final double settledP99Factor;
    /**
     * The nice value the hostile clients' JVM runs at (0: the same priority as the buffer); see
     * {@link AttackerPriority}.
     */
    final int attackerNice;
    /**
     * The CPUs the hostile clients' JVM is pinned to ({@code taskset -c}'s list, e.g. {@code 1}; blank: every CPU);
     * see {@link AttackerPriority#pin}.
     */
    final String attackerCpus;
    /**
     * The hostile clients' JVM's scheduling policy: {@code normal} (the default) or {@code idle} (Linux's
     * {@code SCHED_IDLE}); see {@link AttackerPriority#policy}.
     */
    final String attackerPolicy;
    /**
     * The service's warm-up before readiness ({@code buffer.warmup.max-duration}): CI 2 s, as the other packaged-service
     * tests' short warm-up (the CI size asserts no latency, so a rehearsal of the full 20 s bought it nothing and cost
     * each run 18 s); full and uploads 20 s, the default, as in production, whose p99 the bound compares.
     */
    final Duration serviceWarmup;
    /**
     * The service's {@code quarkus.shutdown.delay} when the run stops it (after every check of the process): CI 0 s,
     * full and uploads 5 s, the default.
     */
    final Duration serviceShutdownDelay;
    /**
     * JVM options added after {@link #IMAGE_JVM} for the service (space-separated; empty by default): a profile of a
     * run, e.g. {@code -XX:StartFlightRecording=filename=/tmp/service.jfr,settings=profile} (not under target/abuse,
     * which a run empties first).
     */
    final List<String> serviceJvmExtra;

    private AbuseSettings() {
        mode = mode();
        uploads = mode.equals("uploads");
        full = uploads || mode.equals("full");
        legitRate = integer("legit-rate", 20, 20);
        quiet = Duration.ofSeconds(integer("quiet", 5, 30));
        quietSettle = Duration.ofSeconds(integer("quiet-settle", 3, 10));
        hostile = integer("hostile", 10_000, 30_000, 0);
        hostileRate = integer("hostile-rate", 400, 400);
        hostileConcurrency = integer("hostile-concurrency", 24, 24);
        hostileUnknownEvery = integer("hostile-unknown-every", 3, 3);
        hostileGroups = groups(text("hostile-groups", ""));
        slow = integer("slow", 200, 400, 0);
        slowHold = Duration.ofSeconds(integer("slow-hold", 20, 60, 0));
        big = integer("big", 64, 64);
        bigRounds = integer("big-rounds", 1, 3, 30);
        bigBytes = integer("big-bytes", 15_000_000, 15_000_000);
        bigTargets = targets(text("big-targets", pick("small,unknown,large", "small,unknown,large", "small,unknown")));
        prewarmRounds = integer("prewarm-rounds", 0, 0);
        rssBound = Long.parseLong(text("rss-bound", Long.toString(POD_LIMIT_BYTES)).strip());
        p99Factor = Double.parseDouble(text("p99-factor", pick("0", "5", "2")));
        onset = Duration.ofSeconds(integer("onset", 15, 15));
        settledP99Factor = Double.parseDouble(text("settled-p99-factor", pick("0", "2", "0")));
        serviceWarmup = Duration.ofSeconds(integer("service-warmup", 2, 20));
        serviceShutdownDelay = Duration.ofSeconds(integer("service-shutdown-delay", 0, 5));
        attackerNice = integer("attacker-nice", 19, 19);
        attackerCpus = text("attacker-cpus", "").strip();
        attackerPolicy = choice("attacker-policy", "normal", List.of("normal", "idle"));
        String extra = text("service-jvm-extra", "").strip();
        serviceJvmExtra = extra.isEmpty() ? List.of() : List.of(extra.split("\\s+"));
    }

    /** The service's JVM options: the image's, then the extra ones. */
    List<String> serviceJvm() {
        return Stream.concat(IMAGE_JVM.stream(), serviceJvmExtra.stream()).toList();
    }

    static AbuseSettings fromEnvironment() {
        return new AbuseSettings();
    }

    String describe() {
        return String.format(Locale.ROOT, "mode %s; legitimate sender %d signed requests/s (alone %d s first, the first"
                + " %d s of them left out of the quiet p99); %,d hostile requests at up to %d/s over %d connections at a"
                + " time (one in %d to an unknown tenant, 0: none; the rest of the catalogue's kinds: %s); %d slow"
                + " connections held %d s; %d x %d connections pushing %,d-byte bodies (to %s); JVM %s; service warm-up"
                + " %d s, shutdown delay %d s; the legitimate sender in its own process, the hostile clients' JVM at nice"
                + " %d%s%s%s",
                mode, legitRate, quietSettle.toSeconds() + quiet.toSeconds(), quietSettle.toSeconds(), hostile,
                hostileRate, hostileConcurrency, hostileUnknownEvery,
                hostileGroups.isEmpty() ? "all" : String.join(", ", hostileGroups), slow, slowHold.toSeconds(),
                bigRounds, big, bigBytes, String.join(", ", bigTargets), String.join(" ", serviceJvm()),
                serviceWarmup.toSeconds(), serviceShutdownDelay.toSeconds(), attackerNice,
                attackerPolicy.equals("idle") ? " under SCHED_IDLE" : "",
                attackerCpus.isEmpty() ? "" : " on CPUs " + attackerCpus,
                prewarmRounds == 0 ? "" : String.format(Locale.ROOT, "; %d round(s) of the uploads before the quiet"
                        + " phase, not counted", prewarmRounds));
    }

    private int integer(String name, int ci, int fullValue) {
        return integer(name, ci, fullValue, fullValue);
    }

    private int integer(String name, int ci, int fullValue, int uploadsValue) {
        return Integer.parseInt(text(name, pick(Integer.toString(ci), Integer.toString(fullValue),
                Integer.toString(uploadsValue))).strip());
    }

    /** The default of this run's mode. */
    private String pick(String ci, String fullValue, String uploadsValue) {
        return uploads ? uploadsValue : full ? fullValue : ci;
    }

    private static String mode() {
        return choice("mode", "ci", List.of("ci", "full", "uploads"));
    }

    private static String choice(String name, String fallback, List<String> choices) {
        String value = text(name, fallback).strip().toLowerCase(Locale.ROOT);
        if (!choices.contains(value)) {
            throw new IllegalArgumentException("abuse." + name + ": " + String.join(", ", choices) + "; was " + value);
        }
        return value;
    }

    private static List<String> targets(String list) {
        List<String> targets = List.of(list.strip().split("\\s*,\\s*"));
        if (!List.of("small", "unknown", "large").containsAll(targets)) {
            throw new IllegalArgumentException("abuse.big-targets: a list of small, unknown, large; was " + list);
        }
        return targets;
    }

    private static List<String> groups(String list) {
        if (list.isBlank()) {
            return List.of();
        }
        List<String> groups = List.of(list.strip().split("\\s*,\\s*"));
        if (!Hostile.GROUPS.containsAll(groups)) {
            throw new IllegalArgumentException("abuse.hostile-groups: a comma-separated list of " + Hostile.GROUPS
                    + "; was " + list);
        }
        return groups;
    }

    private static String text(String name, String fallback) {
        String property = System.getProperty("abuse." + name);
        if (property != null && !property.isBlank()) {
            return property;
        }
        String env = System.getenv("ABUSE_" + name.toUpperCase(Locale.ROOT).replace('-', '_'));
        return env == null || env.isBlank() ? fallback : env;
    }
}
