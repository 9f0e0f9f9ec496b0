package io.webhookbuffer.ingress;

import static io.webhookbuffer.testsupport.RawHttp.head;
import static io.webhookbuffer.testsupport.TestTenants.tenant;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.vertx.mutiny.sqlclient.Pool;
import io.webhookbuffer.fairness.NoisyNeighbourProfile;
import io.webhookbuffer.testsupport.Db;
import io.webhookbuffer.testsupport.RawHttp;
import io.webhookbuffer.testsupport.Scrape;
import io.webhookbuffer.testsupport.Signed;
import io.webhookbuffer.testsupport.TestTenants;

/**
 * The replica's bytes in flight are a fair share (issue 40, weakness 1): a body is charged for the room its arrived
 * bytes are read into, not for the {@code Content-Length} it declares, and one tenant may hold at most half of what
 * the others leave, so bodies aimed at tenant A (declared and never sent, or sent in part and stalled) cannot refuse
 * tenant B's signed events. {@link NoisyNeighbourProfile}: a 400 KiB budget, bodies up to 100 KiB, a 2 s body deadline.
 */
@QuarkusTest
@TestProfile(NoisyNeighbourProfile.class)
class InFlightSharesTests {

    private static final String IN_FLIGHT = "buffer_ingress_in_flight_bytes";
    private static final int CONNECTIONS = 8;

    @Inject
    Pool pool;

    @Test
    void bodiesDeclaredAndNeverSentHoldNothingAndRefuseNoOne() throws Exception {
        String a = tenant().maxBodyBytes(102_400).provision();
        String b = tenant().provision();
        // Eight heads of 102,400 bytes each: twice the replica's budget, declared and never sent.
        List<RawHttp> declared = aimAt(a, 0);
        try {
            Thread.sleep(300); // the heads are admitted (or, before the fix, the budget taken by them)
            assertEquals(10, signedEvents(b, 10), "B's signed events are all accepted");
            assertEquals(0, Scrape.now().count(IN_FLIGHT), "no byte arrived, none is held");
        } finally {
            closeAll(declared);
        }
        assertEquals(10, Db.dedupeRows(pool, b));
        assertEquals(0, Db.dedupeRows(pool, a));
    }

    @Test
    void bodiesSentInPartAndStalledTakeAtMostTheirTenantsShare() throws Exception {
        String a = tenant().maxBodyBytes(102_400).provision();
        String b = tenant().provision();
        // 40,000 bytes of a declared 102,400 on each of eight connections, then nothing: each in room of 65,536.
        List<RawHttp> stalled = aimAt(a, 40_000);
        try {
            long share = NoisyNeighbourProfile.IN_FLIGHT_BYTES / 2;
            await().atMost(Duration.ofSeconds(5))
                    .until(() -> Scrape.now().count(IN_FLIGHT) >= share - 65_536);
            assertEquals(10, signedEvents(b, 10), "B's signed events are all accepted");
            double held = Scrape.now().count(IN_FLIGHT);
            assertTrue(held <= share, "A holds at most half of the budget, held " + held);
        } finally {
            closeAll(stalled);
        }
        assertEquals(10, Db.dedupeRows(pool, b));
    }

    /** {@link #CONNECTIONS} requests to {@code tenantId} that declare 102,400 bytes and send {@code sent} of them. */
    private static List<RawHttp> aimAt(String tenantId, int sent) throws Exception {
        List<RawHttp> connections = new ArrayList<>();
        for (int i = 0; i < CONNECTIONS; i++) {
            connections.add(RawHttp.open().send(head("POST /webhook/" + tenantId, "Host: 127.0.0.1",
                    "Content-Length: 102400")).send(new byte[sent]));
        }
        return connections;
    }

    /** Sends {@code count} signed events of about 1 KB to {@code tenantId}, each on its own connection; the 202s. */
    private static int signedEvents(String tenantId, int count) throws Exception {
        int accepted = 0;
        for (int i = 0; i < count; i++) {
            byte[] body = ("{\"n\":" + i + ",\"pad\":\"" + "p".repeat(1000) + "\"}").getBytes(StandardCharsets.UTF_8);
            try (RawHttp http = RawHttp.open()) {
                http.send(head("POST /webhook/" + tenantId, "Host: 127.0.0.1", "X-Event-ID: e" + i,
                        "X-Signature: " + Signed.signature(TestTenants.DEFAULT_SECRET, body),
                        "Content-Length: " + body.length)).send(body);
                if (http.answer(Duration.ofSeconds(5)).status() == 202) {
                    accepted++;
                }
            }
        }
        return accepted;
    }

    private static void closeAll(List<RawHttp> connections) throws Exception {
        for (RawHttp connection : connections) {
            connection.close();
        }
    }
}
