package io.webhookbuffer.torture;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.ResourceLock;

import io.webhookbuffer.testsupport.Lanes;

/**
 * The torture suite (issue 14): steady signed load against the packaged service while faults come one after
 * another — {@code kill -9} and restart, PostgreSQL unreachable, a PostgreSQL restart, Redis unreachable, the origin
 * refusing connections and then answering 503, a slow origin, a poison event the origin refuses with 422 and one that
 * makes it answer 500, SIGTERM under load and restart — then the checks below and one table (printed, and written to
 * {@code target/torture/summary.md}).
 *
 * <p>In {@code mvn -B verify} it runs the CI size (a few minutes; a short proxy cut stands in for the restart of the
 * shared PostgreSQL, and the service's warm-up and shutdown delay are short). {@code bench/torture.sh} runs the full
 * size on a throwaway PostgreSQL cluster with a real restart; sizes and settings are in {@link TortureSettings} and
 * docs/torture.md.
 *
 * <p>Checks that fail on 63fcc2b (before issue 14's fixes), and why, are marked "63fcc2b:" below.
 *
 * <p>It runs beside the light packaged-service tests (failsafe's lanes, docs/testing.md), never beside another that
 * loads the cores: its service, its proxies and its tenants are its own (its datasource URL names its proxy, so no
 * other service shares its rate windows), and most of its time is spent waiting out the faults.
 */
@Execution(ExecutionMode.CONCURRENT)
@ResourceLock(Lanes.CORES)
class TortureIT {

    @Test
    void faultsOneAfterAnotherLoseNothingDeadLetterOnlyPoisonsAndRecoverAtOnce() throws Exception {
        TortureSettings settings = TortureSettings.fromEnvironment();
        TortureReport report;
        try (TortureRun run = new TortureRun(settings)) {
            run.warmUp();
            run.killAndRestart();
            run.postgresUnreachable();
            run.postgresRestart();
            run.redisUnreachable();
            run.originDown();
            run.slowOrigin();
            run.poisons();
            run.sigtermAndRestart();
            report = run.finish();
        }
        String summary = report.summary();
        System.out.println(summary);
        Files.writeString(Path.of("target", "torture", "summary.md"), summary, StandardCharsets.UTF_8);

        assertAll(
                () -> assertTrue(report.storedEvents() >= settings.rate * settings.warmup.toSeconds() / 2,
                        "the load ran: " + report.storedEvents() + " events answered 202"),
                // Invariant 2: a 202 reaches the origin or dead_letters, across every fault.
                () -> assertEquals(List.of(), first(report.lost()),
                        report.lost().size() + " event(s) answered 202 are neither at the origin nor in dead_letters"
                                + " (" + report.leftInQueue() + " still queued)"),
                // Invariant 8. 63fcc2b: fails. Every failed batch counts an attempt on each of its events, so the
                // origin outage and the slow origin dead-letter the heads of the queues after max-attempts, and the
                // 500-poison takes every neighbour of its batch to dead_letters with it (issue 14 part 1).
                () -> assertEquals(List.of(), first(report.unexpectedDeadLetters()),
                        report.unexpectedDeadLetters().size() + " dead letter(s) besides the two poison events"),
                () -> assertEquals(Set.of(), report.poisonsNotDeadLettered(),
                        "the poison events end in dead_letters"),
                () -> assertEquals(Map.of(), report.disallowedAnswers(),
                        "answers other than 202/200/429/503 (status → count; -1 no answer, -2 timed out) outside the "
                                + "windows where the process was down"),
                () -> assertEquals(Map.of(), report.slowRecoveries(),
                        "faults whose first 202 came more than " + settings.recoveryBound.toMillis()
                                + " ms after their end (ms; -1: none)"),
                // Invariant 4.
                () -> assertEquals(List.of(), report.secretsInLogs(), "secrets in the service's logs"),
                // Issue 14 part 3: an outage that was survived must not read as errors to an alerting pipeline.
                // 63fcc2b: fails. The SQL client's pool logs "Uncaught exception received by Vert.x:
                // IllegalStateException: Result is already complete" after the PostgreSQL cuts (~120 lines).
                () -> assertEquals(List.of(), first(report.errorLines()),
                        report.errorLines().size() + " ERROR line(s) in the service's logs"),
                () -> assertEquals(List.of(), report.notes(), "the run went as planned"));
    }

    private static <T> List<T> first(List<T> all) {
        return all.subList(0, Math.min(10, all.size()));
    }
}
