package io.webhookbuffer.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.ResourceLock;

import io.webhookbuffer.local.LocalServersConfigSourceFactory;
import io.webhookbuffer.testsupport.Lanes;

/**
 * Keeps the benchmark from rotting: {@code bench/run.sh --scenario smoke} (a few seconds, 100 requests/s) against
 * the packaged service, its own database and the counting origin, and the summary it prints must parse and show
 * zero lost events. Never a speed: the figures are the benchmark's to report, not a test's to assert.
 *
 * <p>The buffer is the service's artifact this build just packaged ({@code BENCH_APP}); the generator, the origin and
 * the report run from this JVM's class path, which holds {@code src/tools} ({@code BENCH_TOOLS_CLASSPATH}). So no
 * local build is made inside {@code mvn verify} (it took about 1.5 of the test's 2 minutes), and the run is of the
 * code just built, never of a stale {@code target/local}. That artifact has no ceiling route: the commit ceiling is
 * measured, the HTTP ceiling is reported as not measured. The route switched on, and the local build itself, are run
 * by {@code bench/run.sh} by hand, outside {@code mvn verify} (docs/testing.md).
 *
 * <p>It runs beside the light packaged-service tests (failsafe's lanes, docs/testing.md), never beside another that
 * loads the cores (its pgbench run and its closed-loop start-up do): its database, ports and processes are its own.
 */
@Execution(ExecutionMode.CONCURRENT)
@ResourceLock(Lanes.CORES)
class BenchSmokeIT {

    @Test
    void theSmokeScenarioRunsEndToEndWithNothingLost() throws Exception {
        Path out = Path.of("target", "bench-smoke");
        deleteRecursively(out);
        ProcessBuilder pb = new ProcessBuilder("bash", "bench/run.sh", "--scenario", "smoke");
        pb.environment().put("BENCH_APP", Path.of(System.getProperty("service.jar",
                "target/quarkus-app/quarkus-run.jar")).getParent().toString());
        pb.environment().put("BENCH_TOOLS_CLASSPATH", System.getProperty("java.class.path"));
        pb.environment().put("BENCH_DATABASE", LocalServersConfigSourceFactory.TEST_DATABASE + "_bench");
        pb.environment().put("BENCH_BUFFER_PORT", Integer.toString(freePort()));
        pb.environment().put("BENCH_ORIGIN_PORT", Integer.toString(freePort()));
        pb.environment().put("BENCH_OUT", out.toString());
        pb.environment().put("BENCH_DRAIN_WAIT", "120s");
        // Every JVM of the run (the buffer's two starts, the generator's two, the origin, the report) on C1 alone: it
        // reports figures but asserts none, and a start took about half the time and CPU (ServiceProcess.TEST_JVM).
        pb.environment().put("JAVA_TOOL_OPTIONS", "-XX:TieredStopAtLevel=1");
        pb.redirectErrorStream(true);
        File log = Path.of("target", "bench-smoke.log").toFile();
        pb.redirectOutput(log);
        Process run = pb.start();
        try {
            assertTrue(run.waitFor(5, TimeUnit.MINUTES), "bench/run.sh did not finish; see " + log);
        } finally {
            run.descendants().forEach(ProcessHandle::destroyForcibly); // its origin, generator and buffer: no orphans
            run.destroyForcibly();
        }
        assertEquals(0, run.exitValue(), "bench/run.sh failed; see " + log);

        Map<String, String> summary = SummaryTable.parse(Files.readString(out.resolve("summary.md"),
                StandardCharsets.UTF_8));
        assertEquals("smoke", summary.get("scenario"));
        assertTrue(Long.parseLong(summary.get("accepted ids")) > 0, "the smoke run acknowledged nothing: " + summary);
        assertEquals("0", summary.get("lost"), "acknowledged events never reached the origin: " + summary);
        assertTrue(summary.containsKey("ratio to commit ceiling"), "the commit ceiling is in the summary: " + summary);
        // No ceiling from the 404s of a build without the route.
        assertFalse(summary.containsKey("ratio to HTTP ceiling"), "an HTTP ceiling without the route: " + summary);
        assertTrue(Files.readString(log.toPath(), StandardCharsets.UTF_8).contains("HTTP ceiling: not measured"),
                "the run says why it has no HTTP ceiling; see " + log);
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static void deleteRecursively(Path dir) throws IOException {
        if (Files.exists(dir)) {
            try (var paths = Files.walk(dir)) {
                paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }
}
