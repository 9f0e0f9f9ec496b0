package io.webhookbuffer.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
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

import com.fasterxml.jackson.databind.ObjectMapper;

import io.webhookbuffer.local.LocalServersConfigSourceFactory;
import io.webhookbuffer.testsupport.Lanes;

/**
 * Keeps the benchmark from rotting: {@code bench/run.sh --scenario smoke} (a few seconds, 100 requests/s) against
 * the packaged service, its own database and the counting origin, and the summary it prints must parse and show
 * zero lost events. Never a speed: the figures are the benchmark's to report, not a test's to assert.
 *
 * <p>It runs beside the light packaged-service tests (failsafe's lanes, docs/testing.md), never beside another that
 * loads the cores (its build does): its build, database, ports and processes are its own.
 */
@Execution(ExecutionMode.CONCURRENT)
@ResourceLock(Lanes.CORES)
class BenchSmokeIT {

    @Test
    void theSmokeScenarioRunsEndToEndWithNothingLost() throws Exception {
        Path out = Path.of("target", "bench-smoke");
        deleteRecursively(out);
        ProcessBuilder pb = new ProcessBuilder("bash", "bench/run.sh", "--scenario", "smoke");
        pb.environment().put("BENCH_DATABASE", LocalServersConfigSourceFactory.TEST_DATABASE + "_bench");
        pb.environment().put("BENCH_BUFFER_PORT", Integer.toString(freePort()));
        pb.environment().put("BENCH_ORIGIN_PORT", Integer.toString(freePort()));
        pb.environment().put("BENCH_OUT", out.toString());
        pb.environment().put("BENCH_DRAIN_WAIT", "120s");
        pb.redirectErrorStream(true);
        File log = Path.of("target", "bench-smoke.log").toFile();
        pb.redirectOutput(log);
        Process run = pb.start();
        try {
            assertTrue(run.waitFor(5, TimeUnit.MINUTES), "bench/run.sh did not finish; see " + log);
        } finally {
            run.descendants().forEach(ProcessHandle::destroyForcibly); // its build, origin and buffer: no orphans
            run.destroyForcibly();
        }
        assertEquals(0, run.exitValue(), "bench/run.sh failed; see " + log);

        Map<String, String> summary = SummaryTable.parse(Files.readString(out.resolve("summary.md"),
                StandardCharsets.UTF_8));
        assertEquals("smoke", summary.get("scenario"));
        assertTrue(Long.parseLong(summary.get("accepted ids")) > 0, "the smoke run acknowledged nothing: " + summary);
        assertEquals("0", summary.get("lost"), "acknowledged events never reached the origin: " + summary);
        assertTrue(summary.containsKey("ratio to HTTP ceiling") && summary.containsKey("ratio to commit ceiling"),
                "both ceilings are in the summary: " + summary);
        LoadResult ceiling = new ObjectMapper().readValue(out.resolve("http-ceiling.json").toFile(), LoadResult.class);
        assertEquals(Map.of("202", ceiling.requests()), ceiling.statuses(), "the ceiling endpoint answered 202");
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
