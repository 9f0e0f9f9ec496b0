package io.webhookbuffer.ingress;

import static io.webhookbuffer.ingress.ConnectionCapProfile.MAX_CONNECTIONS;
import static io.webhookbuffer.ingress.ConnectionCapProfile.OVERFLOW;
import static io.webhookbuffer.testsupport.RawHttp.head;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import jakarta.inject.Inject;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.vertx.core.json.JsonObject;
import io.webhookbuffer.testsupport.RawHttp;
import io.webhookbuffer.testsupport.RawHttp.Answer;
import io.webhookbuffer.testsupport.Scrape;

/**
 * The webhook port's connection cap ({@link ConnectionCapProfile}: 4): the connections past it are answered
 * {@code 503 too_many_connections} with {@code Retry-After} and closed, up to the overflow; past that a connection is
 * closed as it is accepted; and the cap frees with the connections that held it.
 */
@QuarkusTest
@TestProfile(ConnectionCapProfile.class)
class ConnectionCapTests {

    private static final String LIVE = head("GET /q/health/live", "Host: 127.0.0.1");

    @Inject
    EdgePort edge;

    @BeforeEach
    void noConnectionsLeftOver() {
        await().atMost(Duration.ofSeconds(15)).until(() -> edge.openConnections() == 0);
    }

    @Test
    void aConnectionPastTheCapIsAnswered503TooManyConnectionsAndClosed() throws Exception {
        double before = Scrape.now().count("buffer_ingress_refusals_total", "reason", "too_many_connections");
        List<RawHttp> held = open(MAX_CONNECTIONS);
        try (RawHttp past = RawHttp.open()) {
            await().atMost(Duration.ofSeconds(5)).until(() -> edge.openConnections() == MAX_CONNECTIONS + 1);
            Answer answer = past.send(LIVE).answer(Duration.ofSeconds(5));
            assertEquals(503, answer.status());
            assertTrue(Integer.parseInt(answer.header("Retry-After")) >= 1);
            assertEquals("close", answer.header("Connection"));
            JsonObject reply = new JsonObject(answer.body());
            assertEquals("unavailable", reply.getString("status"));
            assertEquals("too_many_connections", reply.getString("reason"));
            assertTrue(past.closedWithin(Duration.ofSeconds(5)));
        } finally {
            close(held);
        }
        assertEquals(before + 1, Scrape.now().count("buffer_ingress_refusals_total", "reason", "too_many_connections"));
        await().atMost(Duration.ofSeconds(5)).until(() -> edge.openConnections() == 0);
        try (RawHttp after = RawHttp.open()) {
            assertEquals(200, after.send(LIVE).answer(Duration.ofSeconds(5)).status(), "the cap freed");
        }
    }

    @Test
    void pastTheOverflowAConnectionIsClosedAsItIsAccepted() throws Exception {
        List<RawHttp> held = open(MAX_CONNECTIONS + OVERFLOW);
        try {
            await().atMost(Duration.ofSeconds(5)).until(() -> edge.openConnections() == MAX_CONNECTIONS + OVERFLOW);
            try (RawHttp beyond = RawHttp.open()) {
                assertTrue(beyond.closedWithin(Duration.ofSeconds(2)), "closed before it sent anything");
            }
            Answer overflowed = held.get(held.size() - 1).send(LIVE).answer(Duration.ofSeconds(5));
            assertEquals(503, overflowed.status(), "the overflow is still answered");
            assertEquals(200, held.get(0).send(LIVE).answer(Duration.ofSeconds(5)).status(), "those within the cap");
        } finally {
            close(held);
        }
    }

    /** {@code n} connections that send nothing, each accepted before the next is opened. */
    private List<RawHttp> open(int n) throws Exception {
        List<RawHttp> connections = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            connections.add(RawHttp.open());
            int expected = i + 1;
            await().atMost(Duration.ofSeconds(5)).until(() -> edge.openConnections() >= expected);
        }
        return connections;
    }

    private static void close(List<RawHttp> connections) throws Exception {
        for (RawHttp c : connections) {
            c.close();
        }
    }
}
