package io.webhookbuffer.delivery;

import static io.webhookbuffer.testsupport.TestTenants.tenant;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.IntStream;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import io.webhookbuffer.common.EventIds;
import io.webhookbuffer.testsupport.Db;
import io.webhookbuffer.testsupport.Events;
import io.webhookbuffer.testsupport.FakeOrigin;
import io.webhookbuffer.testsupport.TestClock;
import io.webhookbuffer.testsupport.FakeOrigin.Answer;
import io.webhookbuffer.testsupport.InjectFakeOrigin;
import io.webhookbuffer.testsupport.Signed;

/**
 * A long outage, compressed (issue 14 part 5): with backoff in milliseconds and a breaker that never opens (every
 * retry is a real send), an origin that refuses connections and then answers 503 for twenty times
 * {@code max-attempts × backoff-cap} dead-letters nothing and drains fully afterwards; and a poison event that makes
 * the origin answer 500 (only for batches that hold it) is isolated and dead-lettered while its neighbours, before
 * and after it in the same tenant's queue, are delivered.
 *
 * <p>The outage lasts on the drainer's clock, its backoff waits skipped ({@link TestClock#skipWaits}).
 *
 * <p>63fcc2b: both fail. Every failed batch counts an attempt on each of its events, so the outage dead-letters the
 * whole backlog after {@code max-attempts}, and the 500-poison takes its batch with it (issue 14 part 1).
 */
@QuarkusTest
@TestProfile(ShortBackoffProfile.class)
class CompressedOutageTests {

    static final int MAX_ATTEMPTS = ShortBackoffProfile.MAX_ATTEMPTS;
    static final long BACKOFF_CAP_MILLIS = ShortBackoffProfile.BACKOFF_CAP_MILLIS;
    /** Each half of the outage: refusing, then 503. Together 20 × max-attempts × backoff-cap. */
    static final long HALF_OUTAGE_MILLIS = 10 * MAX_ATTEMPTS * BACKOFF_CAP_MILLIS;
    private static final Duration PATIENCE = Duration.ofSeconds(30);

    @InjectFakeOrigin
    FakeOrigin origin;

    @Inject
    Pool pool;

    @Inject
    Drainer drainer;

    @Inject
    TestClock clock;

    @Test
    void anOutageOfManyTimesMaxAttemptsTimesTheCapDeadLettersNothingAndDrainsAfterwards() throws Exception {
        List<String> tenants = List.of(tenant().provision(), tenant().provision());
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        for (String t : tenants) {
            Signed.command("{\"originUrl\":\"http://127.0.0.1:" + closedPort + "\"}").put("/control/tenants/" + t)
                    .then().statusCode(200);
        }
        Set<String> sent = new HashSet<>();
        for (int i = 0; i < 15; i++) {
            for (String t : tenants) {
                Events.accept(t, "out-" + i);
                sent.add(t + "/out-" + i);
            }
        }
        lastFor(tenants, HALF_OUTAGE_MILLIS); // refused connections
        for (String t : tenants) {
            origin.answer(t, batch -> Answer.status(503));
            Signed.command("{\"originUrl\":null}").put("/control/tenants/" + t).then().statusCode(200);
        }
        lastFor(tenants, HALF_OUTAGE_MILLIS); // 503 for every batch
        for (String t : tenants) {
            assertEquals(List.of(), deadLetterIds(t), "dead letters of " + t + " during an origin outage");
            assertTrue(origin.batches(t).size() > MAX_ATTEMPTS,
                    "the 503s alone came more than max-attempts times: " + origin.batches(t).size());
            origin.answer(t, batch -> Answer.ok());
        }

        await().atMost(PATIENCE).until(() -> tenants.stream().allMatch(t -> Db.queued(pool, t) == 0));
        Set<String> delivered = new HashSet<>();
        for (String t : tenants) {
            assertEquals(List.of(), deadLetterIds(t), "dead letters of " + t + " after the outage");
            origin.providerIds(t).forEach(id -> delivered.add(t + "/" + id));
        }
        assertEquals(sent, delivered, "every event was delivered after the outage");
    }

    @Test
    void aPoisonThatMakesTheOrigin500IsIsolatedAndDeadLetteredWhileItsNeighboursAreDelivered() throws Exception {
        String t = tenant().provision();
        String neighbour = tenant().provision();
        origin.answer(t, batch -> batch.events().stream().anyMatch(e -> FakeOrigin.providerId(e).equals("poison"))
                ? new Answer(500, Map.of(), "{\"error\":\"crashed\"}", 0)
                : Answer.ok());
        List<String> before = IntStream.range(0, 5).mapToObj(i -> "before-" + i).toList();
        before.forEach(id -> Events.accept(t, id));
        await().atMost(PATIENCE).until(() -> origin.providerIds(t).containsAll(before)); // the origin is healthy

        // Another tenant keeps delivering meanwhile, as on a real origin: the 500s are the poison's, not the origin's.
        AtomicBoolean sending = new AtomicBoolean(true);
        Thread steady = new Thread(() -> {
            for (int i = 0; sending.get(); i++) {
                Events.accept(neighbour, "steady-" + i);
                sleepQuietly(100);
            }
        });
        steady.start();
        try {
            // In quick succession, so the poison shares its batch with neighbours on both sides.
            List<String> around = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                String id = i == 3 ? "poison" : "around-" + i;
                Events.accept(t, id);
                if (i != 3) {
                    around.add(id);
                }
            }
            await().atMost(PATIENCE).until(() -> Db.queued(pool, t) == 0);
            assertEquals(List.of("poison"), deadLetterIds(t), "only the poison is dead-lettered");
            Row dead = deadLetters(t).get(0);
            assertEquals(500, dead.getInteger("last_status"));
            assertTrue(new HashSet<>(origin.providerIds(t)).containsAll(around),
                    "the poison's neighbours were delivered: " + origin.providerIds(t));
        } finally {
            sending.set(false);
            steady.join();
        }
        assertEquals(List.of(), deadLetterIds(neighbour), "the other tenant lost nothing to the poison");
    }

    private List<String> deadLetterIds(String tenantId) {
        return deadLetters(tenantId).stream().map(r -> EventIds.providerId(r.getString("event_id"))).toList();
    }

    private List<Row> deadLetters(String tenantId) {
        List<Row> rows = new ArrayList<>();
        pool.preparedQuery("SELECT * FROM dead_letters WHERE tenant_id = $1 ORDER BY id").execute(Tuple.of(tenantId))
                .await().indefinitely().forEach(rows::add);
        return rows;
    }

    /** Lets {@code millis} pass on the drainer's clock, the tenants' waits skipped. */
    private void lastFor(List<String> tenants, long millis) {
        long end = clock.millis() + millis;
        clock.skipWaits(drainer::view, tenants, PATIENCE, () -> clock.millis() >= end);
    }

    private static void sleepQuietly(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
