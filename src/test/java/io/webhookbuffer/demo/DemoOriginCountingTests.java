package io.webhookbuffer.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;

/**
 * The demo origin's counting, which the benchmark's loss check and summary read: distinct events and tenants,
 * events delivered twice, per-tenant order violations, the peak of batches in flight, and the ids it received.
 */
class DemoOriginCountingTests {

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void countsDistinctEventsDuplicatesAndOrderViolationsPerTenant() throws Exception {
        try (DemoOrigin origin = new DemoOrigin(0, null, null, true)) {
            // e2 was sent after e1's 202, e4 after e3's: e1 must arrive before e2, e3 before e4.
            post(origin, batch("a", "e1", 100, "e2~e1", 200)); // in order, within one batch
            post(origin, batch("a", "e4~e3", 150)); // before its predecessor: out of order
            post(origin, batch("b", "x1~e1", 50)); // another tenant's e1 is not this tenant's: out of order
            post(origin, batch("a", "e3~e2", 140, "e2~e1", 200)); // e3 in order; e2 again: a duplicate only

            Map<String, Long> stats = origin.stats();
            assertEquals(4L, stats.get("batches"));
            assertEquals(6L, stats.get("events"));
            assertEquals(5L, stats.get("distinctEvents"));
            assertEquals(2L, stats.get("tenants"));
            assertEquals(1L, stats.get("duplicates"));
            assertEquals(2L, stats.get("orderViolations"));
            assertTrue(stats.get("firstNewEventAtMillis") > 0);
            assertTrue(stats.get("lastNewEventAtMillis") >= stats.get("firstNewEventAtMillis"));

            String ids = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + origin.port() + "/ids"))
                    .build(), HttpResponse.BodyHandlers.ofString()).body();
            assertEquals(Set.of("a\te1", "a\te2~e1", "a\te3~e2", "a\te4~e3", "b\tx1~e1"),
                    new HashSet<>(List.of(ids.split("\n"))));
        }
    }

    @Test
    void reportsTheMostBatchesInFlightAtOnce() throws Exception {
        try (DemoOrigin origin = new DemoOrigin(0, null, null, true)) {
            http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + origin.port() + "/mode?latencyMs=500"))
                    .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.discarding());
            List<CompletableFuture<HttpResponse<Void>>> calls = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                calls.add(http.sendAsync(request(origin, batch("t" + i, "e", 1)), HttpResponse.BodyHandlers.discarding()));
            }
            for (CompletableFuture<HttpResponse<Void>> call : calls) {
                assertEquals(200, call.get().statusCode());
            }
            assertEquals(3L, origin.stats().get("peakInFlight"));
            post(origin, batch("t9", "e", 1));
            assertEquals(3L, origin.stats().get("peakInFlight"), "a peak, not the latest count");
        }
    }

    private static String batch(String tenant, Object... idsAndTimes) {
        StringBuilder events = new StringBuilder();
        for (int i = 0; i < idsAndTimes.length; i += 2) {
            events.append(i == 0 ? "" : ",").append("{\"eventId\":\"").append(idsAndTimes[i])
                    .append("\",\"tenantId\":\"").append(tenant).append("\",\"receivedAt\":").append(idsAndTimes[i + 1])
                    .append(",\"rawBody\":\"{}\",\"attempts\":1}");
        }
        return "{\"events\":[" + events + "]}";
    }

    private void post(DemoOrigin origin, String body) throws Exception {
        assertEquals(200, http.send(request(origin, body), HttpResponse.BodyHandlers.discarding()).statusCode());
    }

    private static HttpRequest request(DemoOrigin origin, String body) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + origin.port() + "/internal/webhooks/batch"))
                .header("content-type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build();
    }
}
