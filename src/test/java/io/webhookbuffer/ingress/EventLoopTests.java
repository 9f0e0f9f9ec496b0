package io.webhookbuffer.ingress;

import static io.webhookbuffer.testsupport.TestTenants.tenant;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import jakarta.inject.Inject;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.Vertx;
import io.webhookbuffer.testsupport.Events;
import io.webhookbuffer.testsupport.Scrape;
import io.webhookbuffer.testsupport.Signed;
import io.webhookbuffer.testsupport.TestTenants;

/**
 * The event loop never blocks (README, "How an event travels"): Vert.x's own blocked-thread checker, set in tests to
 * warn of any event-loop task that runs over 1 s ({@code %test.quarkus.vertx.max-event-loop-execute-time}, checked
 * every 250 ms), says nothing while the ingest, the control plane and the metrics serve their requests. The checker
 * is first shown to see a task that does block, so that its silence means something; and the scenario runs once
 * before it is watched, because the first use of a class loads it from the jar on whichever thread uses it (seen:
 * 650 ms for Hibernate Reactive's first session on a busy machine), which is start-up, not blocking.
 * A guard against gross blocking (a wait on a lock, a socket, a query), not a latency bound.
 */
@QuarkusTest
class EventLoopTests {

    private static final Logger CHECKER = Logger.getLogger("io.vertx.core.impl.BlockedThreadChecker");

    @Inject
    Vertx vertx;

    private final List<String> warnings = new CopyOnWriteArrayList<>();
    private final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord record) {
            if (record.getLevel().intValue() >= Level.WARNING.intValue()) {
                warnings.add(String.valueOf(record.getMessage()));
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    @BeforeEach
    void listen() {
        CHECKER.addHandler(capture);
    }

    @AfterEach
    void stop() {
        CHECKER.removeHandler(capture);
    }

    @Test
    void noEventLoopTaskRunsLongWhileTheMainPathsServe() {
        vertx.runOnContext(v -> sleep(2_000)); // the control: a task that blocks is seen
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> !warnings.isEmpty());
        serve("warm"); // classes loaded, before the checker's warnings count
        Awaitility.await().pollDelay(Duration.ofMillis(1_200)).until(() -> true); // the control's last warning is in
        warnings.clear();

        serve("watched");
        Awaitility.await().pollDelay(Duration.ofMillis(1_200)).until(() -> true); // a task still running is seen

        assertEquals(List.of(), warnings, "no event-loop task ran over the threshold");
    }

    /** Ingest (small, large, forged, unknown, duplicate), a command, a pause and a scrape. */
    private static void serve(String round) {
        String t = tenant().maxBodyBytes(1024 * 1024).provision();
        for (int i = 0; i < 50; i++) {
            Events.accept(t, "loop-" + i);
        }
        Events.post(t, "loop-0").then().statusCode(200);
        Events.post(t, "loop-forged", "not-the-secret").then().statusCode(401);
        Events.post("nobody-loop", "loop-x", "x").then().statusCode(404);
        byte[] big = ("{\"id\":\"loop-big\",\"pad\":\"" + "x".repeat(512 * 1024) + "\"}").getBytes(StandardCharsets.UTF_8);
        Signed.webhook(TestTenants.DEFAULT_SECRET, big).header("X-Event-ID", "loop-big").post("/webhook/" + t)
                .then().statusCode(202);
        Signed.webhook("not-the-secret", big).header("X-Event-ID", "loop-big-forged").post("/webhook/" + t)
                .then().statusCode(401);
        Signed.command("").get("/control/tenants/" + t).then().statusCode(200);
        Signed.command("").post("/control/tenants/" + t + "/pause").then().statusCode(200);
        assertTrue(Scrape.now().count("buffer_ingest_total", "outcome", "buffered") >= 51, round + ": the metrics answer");
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
