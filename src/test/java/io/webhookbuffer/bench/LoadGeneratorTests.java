package io.webhookbuffer.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.webhookbuffer.common.Hmac;

/**
 * The load generator's own HTTP path ({@link LeanConnection}) against a real Vert.x HTTP server in the test: every
 * request arrives whole and signed, every answer is counted under its status whatever its framing, and a server that
 * drops connections costs errors, not the run.
 */
class LoadGeneratorTests {

    private static final String SECRET = "generator-test-secret";
    private final Vertx vertx = Vertx.vertx();
    private HttpServer server;

    @AfterEach
    void stop() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    @Test
    void sendsSignedRequestsAndCountsEveryAnswerByStatus() throws Exception {
        Set<String> ids = ConcurrentHashMap.newKeySet();
        AtomicInteger badSignatures = new AtomicInteger();
        AtomicInteger n = new AtomicInteger();
        int port = start(request -> request.body().onSuccess(body -> {
            String expected = HexFormat.of().formatHex(Hmac.hmacSha256(SECRET, body.getBytes()));
            if (!expected.equals(request.getHeader("X-Signature"))
                    || !request.path().startsWith("/webhook/gen-")
                    || !body.toString().contains(request.getHeader("X-Event-ID"))) {
                badSignatures.incrementAndGet();
            }
            ids.add(request.getHeader("X-Event-ID"));
            if (n.incrementAndGet() % 3 == 0) {
                // Chunked framing, as an error page might come.
                request.response().setStatusCode(503).setChunked(true).write("try").onSuccess(v -> request.response()
                        .end(" again"));
            } else {
                request.response().setStatusCode(202).end("{\"status\":\"buffered\"}");
            }
        }));

        LoadResult result = run(port, "--count", "300", "--connections", "4", "--tenants", "3");

        assertEquals(0, badSignatures.get(), "every request arrives whole and correctly signed");
        assertEquals(300, result.requests());
        assertEquals(Map.of("202", 200L, "503", 100L), result.statuses());
        assertEquals(Map.of(), result.errors());
        assertEquals(200, result.acceptedIds());
        assertEquals(300, ids.size(), "unique event ids");
    }

    @Test
    void aServerThatDropsConnectionsCostsErrorsNotTheRun() throws Exception {
        AtomicInteger n = new AtomicInteger();
        int port = start(request -> request.body().onSuccess(body -> {
            if (n.incrementAndGet() % 10 == 0) {
                request.connection().close(); // no answer: the generator must count an error and reconnect
            } else {
                request.response().setStatusCode(202).end("{}");
            }
        }));

        LoadResult result = run(port, "--count", "200", "--connections", "2", "--tenants", "2");

        assertEquals(200, result.requests(), "every request was answered or counted as an error");
        long errors = result.errors().values().stream().mapToLong(Long::longValue).sum();
        assertEquals(20, errors);
        assertEquals(180L, result.statuses().get("202"));
    }

    @Test
    void theOpenModelQueuesRequestsDueWhileEveryConnectionIsBusy() throws Exception {
        int port = start(request -> request.body().onSuccess(body -> vertx.setTimer(20,
                t -> request.response().setStatusCode(202).end("{}"))));

        // 200/s for 1 s over one connection whose answers take 20 ms: requests must queue, none may be lost.
        LoadResult result = run(port, "--rate", "200", "--duration", "1s", "--connections", "1", "--tenants", "2");

        assertTrue(result.requests() >= 195, "requests " + result.requests());
        assertEquals(result.requests(), result.statuses().get("202"));
        assertTrue(result.latency().max() >= 20, "latency counts from the scheduled time, queueing included");
    }

    @Test
    void aWarmupPathTakesTheWarmupAndNoneOfItCountsAsAccepted() throws Exception {
        Map<String, AtomicInteger> byPath = new ConcurrentHashMap<>();
        int port = start(request -> request.body().onSuccess(body -> {
            byPath.computeIfAbsent(request.path(), p -> new AtomicInteger()).incrementAndGet();
            request.response().setStatusCode(202).end("{}");
        }));

        LoadResult result = run(port, "--rate", "100", "--warmup", "1s", "--duration", "1s", "--connections", "2",
                "--tenants", "1", "--warmup-path", "/prime/");

        int primed = byPath.get("/prime/gen-0").get();
        int ingested = byPath.get("/webhook/gen-0").get();
        assertTrue(primed >= 95 && primed <= 101, "warm-up requests on the warm-up path: " + primed);
        assertEquals(ingested, result.acceptedIds(), "only the measured run's 202s are accepted ids");
        assertEquals((long) ingested, result.statuses().get("202"));
    }

    @Test
    void theTimelineAccountsForEveryAnswerSecondBySecond(@TempDir Path dir)
            throws Exception {
        int port = start(request -> request.body().onSuccess(body -> request.response().setStatusCode(202).end("{}")));
        Path timeline = dir.resolve("timeline.tsv");
        long before = System.currentTimeMillis();

        LoadResult result = run(port, "--rate", "200", "--duration", "2s", "--connections", "2", "--tenants", "2",
                "--timeline", timeline.toString());

        List<String> lines = Files.readAllLines(timeline);
        assertEquals("second\tanswered\tp50_ms\tp99_ms\tmax_ms\tfailed\tepoch_ms", lines.get(0));
        assertTrue(lines.size() >= 3, "a line per second: " + lines);
        long answered = lines.stream().skip(1).mapToLong(l -> Long.parseLong(l.split("\t")[1])).sum();
        assertEquals(result.requests(), answered);
        long first = Long.parseLong(lines.get(1).split("\t")[6]);
        long last = Long.parseLong(lines.get(lines.size() - 1).split("\t")[6]);
        // The lines come from a one-second timer on the monotonic clock: read on the wall clock, two of them may be
        // a millisecond or two less than a second apart (seen: 999 ms), never half a second.
        assertTrue(first > before && last <= System.currentTimeMillis() && last - first >= 950,
                "wall-clock times of the lines, about a second or more apart: " + lines);
    }

    @Test
    void newIdsNameTheTenantsLastAcceptedIdDuplicatesRepeatARecentEventAndTheHotTenantTakesItsShare()
            throws Exception {
        List<String[]> received = Collections.synchronizedList(new ArrayList<>());
        int port = start(request -> request.body().onSuccess(body -> {
            received.add(new String[] { request.path().substring("/webhook/".length()), request.getHeader("X-Event-ID") });
            request.response().setStatusCode(202).end("{}");
        }));

        // One connection, closed loop: each request leaves after the previous one's 202, so the order is the model's.
        LoadResult result = run(port, "--count", "300", "--connections", "1", "--tenants", "3", "--hot-share", "0.5",
                "--duplicates", "0.2");

        Map<String, String> lastAccepted = new HashMap<>();
        Set<String> sent = new HashSet<>();
        List<String> newQuietTenants = new ArrayList<>();
        int duplicates = 0;
        int toHotTenant = 0;
        for (String[] r : received) {
            String tenant = r[0];
            String id = r[1];
            toHotTenant += tenant.equals("gen-0") ? 1 : 0;
            if (!sent.add(tenant + '\t' + id)) {
                duplicates++;
            } else {
                String previous = lastAccepted.get(tenant);
                String expected = previous == null ? "" : "~" + previous.split("~")[0];
                assertEquals(expected, id.contains("~") ? id.substring(id.indexOf('~')) : "", "predecessor of " + id);
                if (!tenant.equals("gen-0")) {
                    newQuietTenants.add(tenant);
                }
            }
            lastAccepted.put(tenant, id);
        }
        assertEquals(300, received.size());
        assertTrue(duplicates > 0, "a share of the requests repeats a recent event (same tenant, same id)");
        assertEquals(Map.of("202", 300L), result.statuses());
        assertEquals(toHotTenant, result.hotLatency().count(), "the hot tenant's answers, apart");
        assertEquals(300 - toHotTenant, result.quietLatency().count());
        assertTrue(toHotTenant > 0 && toHotTenant < 300, "the hot tenant takes a share, not all: " + toHotTenant);
        for (int i = 0; i < newQuietTenants.size(); i++) {
            assertEquals(i % 2 == 0 ? "gen-1" : "gen-2", newQuietTenants.get(i), "the quiet tenants in turn");
        }
    }

    @Test
    void tenantFromSendsToTheTenantsFromThereInTurn() throws Exception {
        List<String> paths = Collections.synchronizedList(new ArrayList<>());
        int port = start(request -> request.body().onSuccess(body -> {
            paths.add(request.path());
            request.response().setStatusCode(202).end("{}");
        }));

        run(port, "--count", "6", "--connections", "1", "--tenants", "4", "--tenant-from", "2");

        assertEquals(List.of("/webhook/gen-2", "/webhook/gen-3", "/webhook/gen-2", "/webhook/gen-3", "/webhook/gen-2",
                "/webhook/gen-3"), paths);
    }

    @Test
    void refusesOptionsThatOnlyMakeSenseTogetherFirstBrokenRuleFirst() {
        Map<String, List<String>> refusals = new LinkedHashMap<>();
        refusals.put("--provision takes true, false or only", List.of("--provision", "maybe", "--tenant-from", "20"));
        refusals.put("--provision needs --control-secret", List.of("--provision", "true"));
        refusals.put("--tenant-from must be below --tenants", List.of("--tenants", "2", "--tenant-from", "2"));
        refusals.put("--hot-share needs at least 2 tenants", List.of("--tenants", "1", "--hot-share", "0.5"));
        refusals.put("--warmup-path needs --warmup", List.of("--warmup-path", "/prime/"));
        refusals.put("--windows end after --duration", List.of("--duration", "10s", "--windows", "cold=0-15"));
        refusals.put("a burst needs --rate (open model)", List.of("--burst-for", "5s"));
        refusals.forEach((reason, options) -> assertEquals(reason, assertThrows(IllegalArgumentException.class,
                () -> settings(0, options.toArray(String[]::new))).getMessage(), String.join(" ", options)));
        settings(0, "--provision", "only", "--control-secret", "c", "--tenants", "2", "--tenant-from", "1",
                "--hot-share", "0.5", "--warmup", "1s", "--warmup-path", "/prime/", "--rate", "10", "--burst-for", "1s");
    }

    private int start(Handler<HttpServerRequest> handler) throws Exception {
        server = vertx.createHttpServer().requestHandler(handler);
        return server.listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS)
                .actualPort();
    }

    private static LoadResult run(int port, String... options) throws Exception {
        return new LoadGenerator(settings(port, options), new PrintWriter(new StringWriter())).run();
    }

    private static LoadGenerator.Settings settings(int port, String... options) {
        List<String> args = new ArrayList<>(List.of("--url", "http://127.0.0.1:" + port,
                "--tenant-prefix", "gen", "--webhook-secret", SECRET, "--duplicates", "0"));
        args.addAll(List.of(options));
        return LoadGenerator.Settings.from(CliOptions.parse(args.toArray(String[]::new), LoadGenerator.OPTIONS));
    }
}
