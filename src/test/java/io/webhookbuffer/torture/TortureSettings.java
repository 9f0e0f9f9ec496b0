package io.webhookbuffer.torture;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.webhookbuffer.testsupport.ServiceProcess;

/**
 * The torture suite's knobs. Each is the system property {@code torture.<name>} or the environment variable
 * {@code TORTURE_<NAME>} (upper case, {@code -} and {@code .} become {@code _}); unset, the CI default, or with
 * {@code torture.mode=full} the full run's. Durations take {@code 500ms}, {@code 10s}, {@code 3m}.
 *
 * <p>Backoff is shortened in both modes so that the origin outage lasts many times
 * {@code max-attempts × max(backoff-cap, breaker delay)}: under the old attribution that is long enough to dead-letter
 * every event at the head of a queue, so a run that ends with no outage dead letters proves the attribution.
 */
final class TortureSettings {

    private static final Pattern DURATION = Pattern.compile("(\\d+)\\s*(ms|s|m|h)");

    final boolean full;
    final int tenants;
    final int rate;
    final double duplicates;
    final Duration warmup;
    final Duration settle;
    final Duration pgOutage;
    /** CI: a proxy cut this long stands in for the restart of the shared PostgreSQL. */
    final Duration pgRestartStandIn;
    final Duration redisOutage;
    final Duration originRefusing;
    final Duration originUnavailable;
    final Duration slowOrigin;
    final Duration poisonWait;
    final Duration drainWait;
    final Duration backoffBase;
    final Duration backoffCap;
    final int maxAttempts;
    final Duration requestTimeout;
    final Duration leaseTtl;
    /** How long after the fault's end the first 202 may come. */
    final Duration recoveryBound;
    /**
     * The service's warm-up before readiness at each of its starts ({@code buffer.warmup.max-duration}; the compiler's
     * settling gets half of it again): CI, short, so its three starts are not most of the run; full, the default.
     */
    final Duration serviceWarmup;
    /** The service's {@code quarkus.shutdown.delay} at both SIGTERMs: CI 1 s (it serves through it either way). */
    final Duration shutdownDelay;
    /**
     * The service's JVM options: CI, the packaged-service tests' ({@code ServiceProcess.TEST_JVM}: C1 alone, which
     * halves a start on the shared machine, and the run is short and light); full, a small heap and both compilers.
     */
    final List<String> serviceJvm;
    /**
     * Full run: the throwaway cluster the service runs on (bench/torture.sh makes it); empty: a database of its own on
     * the test PostgreSQL, {@code <test database>_torture}.
     */
    final Optional<Integer> pgPort;
    final String pgDatabase;
    /** Full run: restarts that cluster (a real PostgreSQL restart); empty: the proxy stand-in. */
    final Optional<String> pgRestartCommand;

    private TortureSettings() {
        full = "full".equalsIgnoreCase(text("mode", "ci"));
        tenants = integer("tenants", 3, 5);
        rate = integer("rate", 30, 60);
        duplicates = Double.parseDouble(text("duplicates", "0.05"));
        warmup = duration("warmup", "5s", "30s");
        settle = duration("settle", "3s", "20s");
        pgOutage = duration("pg-outage", "5s", "10s");
        pgRestartStandIn = duration("pg-restart-stand-in", "3s", "3s");
        redisOutage = duration("redis-outage", "8s", "15s");
        originRefusing = duration("origin-refusing", "5s", "3m");
        originUnavailable = duration("origin-unavailable", "5s", "3m");
        slowOrigin = duration("slow-origin", "4s", "1m");
        poisonWait = duration("poison-wait", "30s", "2m");
        drainWait = duration("drain-wait", "60s", "5m");
        backoffBase = duration("backoff-base", "100ms", "100ms");
        backoffCap = duration("backoff-cap", "500ms", "2s");
        maxAttempts = integer("max-attempts", 4, 5);
        requestTimeout = duration("request-timeout", "1s", "1s");
        leaseTtl = duration("lease-ttl", "3s", "3s");
        recoveryBound = duration("recovery-bound", "2s", "2s");
        serviceWarmup = duration("service-warmup", "2s", "20s");
        shutdownDelay = duration("shutdown-delay", "1s", "5s");
        String jvm = text("service-jvm", full ? "-Xmx256m" : String.join(" ", ServiceProcess.TEST_JVM)).strip();
        serviceJvm = List.of(jvm.split("\\s+"));
        String port = text("pg.port", "");
        pgPort = port.isBlank() ? Optional.empty() : Optional.of(Integer.parseInt(port.strip()));
        pgDatabase = text("pg.database", "webhook_buffer_torture");
        String restart = text("pg.restart-command", "");
        pgRestartCommand = restart.isBlank() ? Optional.empty() : Optional.of(restart);
    }

    static TortureSettings fromEnvironment() {
        return new TortureSettings();
    }

    /** The service's settings for this run (environment variables): its warm-up, shutdown delay and delivery. */
    Map<String, String> serviceEnv() {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("BUFFER_WARMUP_MAX_DURATION", millis(serviceWarmup));
        env.put("QUARKUS_SHUTDOWN_DELAY", millis(shutdownDelay));
        env.put("BUFFER_DELIVERY_BACKOFF_BASE", millis(backoffBase));
        env.put("BUFFER_DELIVERY_BACKOFF_CAP", millis(backoffCap));
        env.put("BUFFER_DELIVERY_MAX_ATTEMPTS", Integer.toString(maxAttempts));
        env.put("BUFFER_DELIVERY_REQUEST_TIMEOUT", millis(requestTimeout));
        env.put("BUFFER_DELIVERY_LEASE_TTL", millis(leaseTtl));
        // An open breaker probes once per delay: as often as the capped backoff retries, so the outage is attempted
        // as hard as the backoff allows (with the default 30 s a probe would come a few times per outage only).
        env.put("BUFFER_DELIVERY_CIRCUIT_BREAKER_DELAY", millis(backoffCap));
        env.put("BUFFER_DELIVERY_SWEEP_INTERVAL", "1000ms");
        return env;
    }

    /** How long the origin outage lasts in units of max-attempts × backoff-cap. */
    double outageOverAttemptBudget() {
        return (double) originRefusing.plus(originUnavailable).toMillis() / (maxAttempts * backoffCap.toMillis());
    }

    /** The conditions, for the report. */
    Map<String, String> describe() {
        Map<String, String> d = new LinkedHashMap<>();
        d.put("mode", full ? "full" : "ci");
        d.put("load", rate + " signed requests/s over " + tenants + " tenants, " + Math.round(duplicates * 100)
                + "% duplicates");
        d.put("faults", "warm-up " + seconds(warmup) + ", settle " + seconds(settle) + " after each; PostgreSQL cut "
                + seconds(pgOutage) + "; PostgreSQL restart "
                + (pgRestartCommand.isPresent() ? "real (own cluster)" : "proxy cut " + seconds(pgRestartStandIn))
                + "; Redis cut " + seconds(redisOutage) + "; origin refusing " + seconds(originRefusing)
                + " then 503 " + seconds(originUnavailable) + "; slow origin " + seconds(slowOrigin));
        d.put("service", "warm-up up to " + seconds(serviceWarmup) + " + settle up to half of it"
                + " at each start, shutdown delay " + seconds(shutdownDelay) + ", JVM " + String.join(" ", serviceJvm));
        d.put("delivery", "backoff " + millis(backoffBase) + " doubling to " + millis(backoffCap) + ", max-attempts "
                + maxAttempts + ", breaker delay " + millis(backoffCap) + ", request-timeout " + millis(requestTimeout)
                + ", lease-ttl " + millis(leaseTtl) + "; origin outage = "
                + String.format(Locale.ROOT, "%.0f", outageOverAttemptBudget()) + " × max-attempts × backoff-cap");
        return d;
    }

    private int integer(String name, int ci, int fullValue) {
        return Integer.parseInt(text(name, Integer.toString(full ? fullValue : ci)).strip());
    }

    private Duration duration(String name, String ci, String fullValue) {
        return parseDuration(name, text(name, full ? fullValue : ci));
    }

    static Duration parseDuration(String name, String value) {
        Matcher m = DURATION.matcher(value.strip().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw new IllegalArgumentException("torture." + name + ": a duration like 500ms, 10s or 3m, not " + value);
        }
        long n = Long.parseLong(m.group(1));
        return switch (m.group(2)) {
            case "ms" -> Duration.ofMillis(n);
            case "s" -> Duration.ofSeconds(n);
            case "m" -> Duration.ofMinutes(n);
            default -> Duration.ofHours(n);
        };
    }

    private static String text(String name, String fallback) {
        String property = System.getProperty("torture." + name);
        if (property != null && !property.isBlank()) {
            return property;
        }
        String env = System.getenv("TORTURE_" + name.toUpperCase(Locale.ROOT).replace('-', '_').replace('.', '_'));
        return env == null || env.isBlank() ? fallback : env;
    }

    static String millis(Duration d) {
        return d.toMillis() + "ms";
    }

    static String seconds(Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : d.toMillis() + " ms";
    }
}
