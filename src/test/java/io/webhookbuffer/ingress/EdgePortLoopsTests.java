package io.webhookbuffer.ingress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.logging.Level;
import java.util.stream.Collectors;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.netty.util.concurrent.EventExecutor;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.Vertx;
import io.webhookbuffer.ops.RequestLogging;
import io.webhookbuffer.testsupport.CapturedLog;
import io.webhookbuffer.testsupport.RawHttp;
import io.webhookbuffer.testsupport.RawHttp.Answer;
import io.webhookbuffer.testsupport.Signed;
import io.webhookbuffer.testsupport.TestTenants;

/**
 * The webhook port serves its connections on every event loop, not one: a server created outside a verticle ran all
 * of them on a single loop (from ab799c9 on), where every request waited behind every other, hostile ones included.
 * The thread that answered each request is read from the request log (DEBUG in the test profile): an accepted event
 * is answered on its connection's loop.
 */
@QuarkusTest
class EdgePortLoopsTests {

    @Inject
    Vertx vertx;

    @Test
    void newConnectionsAreSpreadOverEveryEventLoop() throws Exception {
        int loops = 0;
        for (EventExecutor ignored : vertx.nettyEventLoopGroup()) {
            loops++;
        }
        assertTrue(loops > 1, "the test needs more than one event loop: " + loops);
        String path = "/webhook/" + TestTenants.tenant().provision();
        int connections = 4 * loops; // in turn over the instances: each gets several, whatever else connects meanwhile
        List<CapturedLog.Entry> served;
        try (CapturedLog log = CapturedLog.start(Level.FINE, RequestLogging.class)) {
            for (int i = 0; i < connections; i++) {
                try (RawHttp http = RawHttp.open()) {
                    byte[] body = ("{\"id\":\"loops-" + i + "\"}").getBytes(StandardCharsets.UTF_8);
                    http.send(RawHttp.head("POST " + path, "Host: 127.0.0.1", "Content-Type: application/json",
                            "X-Signature: " + Signed.signature(TestTenants.DEFAULT_SECRET, body),
                            "Content-Length: " + body.length)).send(body);
                    Answer answer = http.answer(Duration.ofSeconds(5));
                    assertEquals(202, answer.status(), answer.statusLine());
                }
            }
            served = log.entries();
        }
        Set<String> threads = served.stream().filter(e -> e.message().contains(path)).map(CapturedLog.Entry::thread)
                .collect(Collectors.toSet());
        // Each instance takes the next loop as it is deployed; another deployment at that moment could put two on
        // one loop, so more than one thread is what is asserted (one server on one loop: exactly one).
        assertTrue(threads.size() > 1, "threads that served " + connections + " connections: " + threads);
    }
}
