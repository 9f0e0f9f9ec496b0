package io.webhookbuffer.abuse;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.ResourceLock;

import io.webhookbuffer.testsupport.Lanes;

/**
 * The abuse suite (issue 15 item 6; docs/abuse.md): the packaged service, run with the container image's JVM flags
 * and the heap the image gives the pod's 768 Mi, takes a legitimate signed sender at a steady rate (alone first, for
 * its quiet latency), then beside it at once at least 10,000 malformed or hostile requests ({@link Hostile}), a few
 * hundred slow connections and connections pushing 15 MB unsigned bodies. The checks: no 5xx but a deliberate 503;
 * nothing of the hostile traffic stored; the legitimate sender answered 202/200 throughout, its p99 within
 * {@code p99-factor} of its quiet p99; the RSS under the pod's limit; the process alive and ready at the end.
 *
 * <p>{@code mvn -B verify} runs the CI size (about two minutes); {@code bench/abuse.sh} the full one, and
 * {@code bench/abuse.sh --uploads} the done-when shape alone (64 connections pushing 15 MB unsigned bodies to a
 * small-limit tenant and to unknown tenants, the p99 within 2x).
 */
@Order(Order.DEFAULT + 2) // last in its lane (docs/testing.md): the light tests are done by then
@ResourceLock(Lanes.CORES)
class AbuseIT {

    @Test
    void hostileTrafficCostsTheSenderMoreThanTheBuffer() throws Exception {
        AbuseSettings settings = AbuseSettings.fromEnvironment();
        AbuseReport report;
        Hostile.Targets targets;
        List<String> errors;
        try (AbuseRun run = new AbuseRun(settings)) {
            run.start();
            targets = run.targets;
            run.quiet();
            run.abuse();
            boolean alive = run.alive();
            run.finish();
            report = new AbuseReport(run, run.stored(), run.foreignLegitRows(), run.errorLines(), alive);
            errors = run.errorSamples(5);
        }
        String summary = report.summary() + errors.stream().map(e -> "  - " + e + "\n").collect(Collectors.joining());
        System.out.println(summary);
        Files.writeString(AbuseRun.DIR.resolve("summary.md"), summary, StandardCharsets.UTF_8);
        Files.writeString(AbuseRun.DIR.resolve("legit.csv"), report.legitCsv(), StandardCharsets.UTF_8);

        assertAll(
                () -> assertTrue(report.hostileRequests >= 10_000 || settings.hostile < 10_000,
                        "at least 10,000 hostile requests: " + report.hostileRequests),
                () -> assertEquals(List.of(), report.tally.undeliberateSamples(),
                        report.undeliberate5xx() + " 5xx answer(s) other than a deliberate 503"),
                () -> assertEquals(0, report.undeliberate5xx(), "5xx other than a deliberate 503"),
                () -> assertEquals(Map.of(), counts(report.hostileStored(targets)),
                        "rows (event_queue, processed_events, dead_letters) of hostile or unknown tenants"),
                () -> assertEquals(0, report.foreignLegitRows, "rows of the legitimate tenant it did not send"),
                () -> assertEquals(report.legit202, report.stored.getOrDefault(targets.legit(), new long[3])[0],
                        "every 202 of the legitimate sender is queued, and nothing else"),
                () -> assertTrue(report.quiet.allAccepted() && report.abused.allAccepted(),
                        "the legitimate sender got only 202/200: quiet " + report.quiet.statuses() + ", under abuse "
                                + report.abused.statuses()),
                () -> assertTrue(report.abused.sent() >= settings.legitRate, "the legitimate sender ran"),
                () -> assertTrue(settings.p99Factor == 0 || report.abused.p99() <= report.p99Bound(),
                        "the legitimate sender's p99 under abuse "
                        + report.abused.p99() + " ms is within " + settings.p99Factor + " x its quiet p99 "
                        + report.quiet.p99() + " ms"),
                () -> assertTrue(settings.settledP99Factor == 0 || report.settled.p99() <= report.settledP99Bound(),
                        "the legitimate sender's p99 after the abuse's first " + settings.onset.toSeconds() + " s "
                        + report.settled.p99() + " ms is within " + settings.settledP99Factor + " x its quiet p99 "
                        + report.quiet.p99() + " ms"),
                () -> assertTrue(settings.settledP99Factor == 0 || report.settled.sent() >= settings.legitRate,
                        "the abuse outlasted its onset"),
                () -> assertTrue(report.rssMax > 0 && report.rssMax <= settings.rssBound, "RSS at most "
                        + AbuseReport.mib(settings.rssBound) + " MiB: " + AbuseReport.mib(report.rssMax) + " MiB"),
                () -> assertTrue(report.survived, "the process is alive at the end"),
                () -> assertEquals("200", report.readyDuringAbuse, "ready while the slow connections are held"),
                () -> assertEquals("200", report.readyAfter, "ready at the end"),
                () -> assertEquals(0, report.errorLines, "ERROR lines in the service's log"));
    }

    private static Map<String, String> counts(Map<String, long[]> rows) {
        Map<String, String> out = new TreeMap<>();
        rows.forEach((tenant, c) -> out.put(tenant, c[0] + " queued, " + c[1] + " dedupe, " + c[2] + " dead"));
        return out;
    }
}
