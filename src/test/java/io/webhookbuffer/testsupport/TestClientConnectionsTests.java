package io.webhookbuffer.testsupport;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;

/**
 * Connections the tests' HTTP client opened end after each answer ({@link RestAssuredConnections}). Without it
 * RestAssured, which makes a client per request, leaves each keep-alive connection open until the garbage collector
 * finds the client: the app under test keeps such a connection for {@code quarkus.http.idle-timeout} (75 s) and
 * closes every connection past {@code quarkus.http.limits.max-connections} (1,000) at once, so a suite that sent more
 * requests than that between two collections saw resets on requests with nothing wrong in them (CI of stop 24:
 * TenantChangePollTests, TenantInvalidationTests). Here a server that counts its open connections, and closes them
 * as the app's does, answers 200 requests; after them at most one may stay open.
 */
@QuarkusTest
class TestClientConnectionsTests {

    @Test
    void connectionsEndAfterEachAnswer() throws Exception {
        AtomicInteger open = new AtomicInteger();
        try (ServerSocket server = new ServerSocket(0, 256, InetAddress.getLoopbackAddress())) {
            Thread acceptor = new Thread(() -> accept(server, open), "counting-server");
            acceptor.setDaemon(true);
            acceptor.start();
            for (int i = 0; i < 200; i++) {
                assertEquals(200, given().baseUri("http://127.0.0.1").port(server.getLocalPort()).get("/").statusCode());
            }
            await().atMost(Duration.ofSeconds(5)).until(() -> open.get() <= 1);
        }
    }

    private static void accept(ServerSocket server, AtomicInteger open) {
        while (!server.isClosed()) {
            try {
                Socket socket = server.accept();
                open.incrementAndGet();
                Thread connection = new Thread(() -> serve(socket, open), "counting-connection");
                connection.setDaemon(true);
                connection.start();
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    /**
     * Answers each request head with an empty 200 and keeps the connection until the client closes it or, like the
     * app's server, until it has answered a request that said {@code Connection: close}.
     */
    private static void serve(Socket socket, AtomicInteger open) {
        try (socket) {
            BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(),
                    StandardCharsets.ISO_8859_1));
            OutputStream out = socket.getOutputStream();
            String line;
            boolean close = false;
            while ((line = in.readLine()) != null) {
                close |= line.toLowerCase(Locale.ROOT).replace(" ", "").equals("connection:close");
                if (line.isEmpty()) {
                    out.write("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
                    out.flush();
                    if (close) {
                        return; // as the app's server does: the answer, then the end of the connection
                    }
                }
            }
        } catch (IOException e) {
            // the client reset it: closed all the same
        } finally {
            open.decrementAndGet();
        }
    }
}
