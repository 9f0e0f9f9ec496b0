package io.webhookbuffer.egress;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.webhookbuffer.testsupport.CapturedLog;

/**
 * An origin that resets its connections (a restart, a load balancer's idle cut) fails the exchange and nothing more:
 * the failure goes to the caller, which decides what it is (the drainer retries it), and not also to the log as an
 * ERROR of the connection (Vert.x logs one for every connection exception no handler took: an SRE's page per origin
 * reset, seen in TortureIT).
 */
class EgressConnectionResetTests {

    private Vertx vertx;
    private ServerSocket server;

    @BeforeEach
    void start() throws IOException {
        vertx = Vertx.vertx();
        server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    }

    @AfterEach
    void stop() throws Exception {
        server.close();
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    @Test
    void aResetMidRequestFailsTheExchangeWithoutAnErrorLine() throws Exception {
        Thread origin = new Thread(() -> {
            try (Socket s = server.accept()) {
                readHead(s.getInputStream());
                s.setSoLinger(true, 0); // close now: an RST instead of a FIN
            } catch (IOException e) {
                // the test fails on what the client saw
            }
        }, "resetting-origin");
        origin.start();
        EgressClient client = new EgressClient(vertx, new HttpClientOptions().setKeepAlive(true), null, 4096);
        try (CapturedLog log = CapturedLog.start()) {
            ExecutionException failed = assertThrows(ExecutionException.class,
                    () -> client.send(HttpMethod.POST, "http://127.0.0.1:" + server.getLocalPort() + "/batch",
                            MultiMap.caseInsensitiveMultiMap(), Buffer.buffer("[]"), 5_000)
                            .toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS));
            assertTrue(String.valueOf(failed.getCause()).contains("reset")
                    || String.valueOf(failed.getCause()).contains("closed"), "the caller sees the reset: " + failed);
            origin.join(5_000);
            assertEquals(List.of(), log.errors(), "no ERROR line for a reset the caller handled");
        }
    }

    @Test
    void aResetOfAnIdlePooledConnectionLeavesNoErrorLine() throws Exception {
        CountDownLatch answered = new CountDownLatch(1);
        Thread origin = new Thread(() -> {
            try (Socket s = server.accept()) {
                readHead(s.getInputStream());
                s.getOutputStream().write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"
                        .getBytes(StandardCharsets.US_ASCII));
                s.getOutputStream().flush();
                answered.await(10, TimeUnit.SECONDS); // the client has the answer and pools the connection
                s.setSoLinger(true, 0); // then the origin cuts it
            } catch (IOException e) {
                // the test fails on what the client saw
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                // the test fails on what the client saw
            }
        }, "idle-resetting-origin");
        origin.start();
        EgressClient client = new EgressClient(vertx, new HttpClientOptions().setKeepAlive(true), null, 4096);
        try (CapturedLog log = CapturedLog.start()) {
            EgressAnswer answer = client.send(HttpMethod.POST, "http://127.0.0.1:" + server.getLocalPort() + "/batch",
                    MultiMap.caseInsensitiveMultiMap(), Buffer.buffer("[]"), 5_000)
                    .toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
            assertEquals(200, answer.status());
            answered.countDown();
            origin.join(5_000);
            // Vert.x takes the reset on its event loop within milliseconds; an ERROR would appear in this window.
            await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(2)).until(log::errors, List::isEmpty);
        }
    }

    /** Reads up to the end of the request's head and the two-byte body. */
    private static void readHead(InputStream in) throws IOException {
        byte[] buf = new byte[8192];
        StringBuilder seen = new StringBuilder();
        while (!seen.toString().contains("\r\n\r\n")) {
            int n = in.read(buf);
            if (n < 0) {
                return;
            }
            seen.append(new String(buf, 0, n, StandardCharsets.US_ASCII));
        }
    }
}
