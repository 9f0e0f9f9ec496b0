package io.webhookbuffer.delivery;

import static io.webhookbuffer.testsupport.TestTenants.tenant;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.vertx.mutiny.sqlclient.Pool;
import io.webhookbuffer.testsupport.Db;
import io.webhookbuffer.testsupport.Events;
import io.webhookbuffer.testsupport.FakeOrigin;
import io.webhookbuffer.testsupport.FakeOrigin.Answer;
import io.webhookbuffer.testsupport.InjectFakeOrigin;

/**
 * Delivery slots are a fair share (issue 40): tenants whose origin is a tarpit (it answers after seconds) cannot keep
 * the slots from a tenant whose origin answers at once. More tarpits than {@code max-concurrent} hold every slot; a
 * healthy tenant's event must still reach the origin before any tarpit has answered. Asserts order and counts only.
 */
@QuarkusTest
@TestProfile(ShortBackoffProfile.class)
class SlowLaneTests {

    private static final long TARPIT_MILLIS = 6_000;
    /** More than the slots, fewer than the slots plus the slow lane: one round of them holds every main slot. */
    private static final int TARPITS = DeliveryProfile.BULKHEAD + 2;
    private static final Duration PATIENCE = Duration.ofSeconds(30);

    @InjectFakeOrigin
    FakeOrigin origin;

    @Inject
    Pool pool;

    @Test
    void tarpitOriginsDoNotKeepTheSlotsFromAHealthyTenant() {
        AtomicInteger tarpitsAnswered = new AtomicInteger();
        List<String> tarpits = IntStream.range(0, TARPITS).mapToObj(i -> tenant().provision()).toList();
        tarpits.forEach(t -> origin.answer(t, batch -> {
            sleep(TARPIT_MILLIS); // the tarpit: counted as answered only once it has waited
            tarpitsAnswered.incrementAndGet();
            return Answer.ok();
        }));
        String healthy = tenant().provision();
        AtomicInteger answeredWhenHealthyArrived = new AtomicInteger(-1);
        origin.answer(healthy, batch -> {
            answeredWhenHealthyArrived.compareAndSet(-1, tarpitsAnswered.get());
            return Answer.ok();
        });

        tarpits.forEach(t -> Events.accept(t, "tarpit-" + t));
        // Every slot is held by a tarpit before the healthy tenant's event comes.
        await().atMost(PATIENCE).until(() -> tarpits.stream().filter(t -> !origin.batches(t).isEmpty()).count()
                >= DeliveryProfile.BULKHEAD);
        Events.accept(healthy, "healthy");

        await().atMost(PATIENCE).until(() -> origin.providerIds(healthy).equals(List.of("healthy")));
        assertEquals(0, answeredWhenHealthyArrived.get(),
                "the healthy tenant's event reached the origin only after tarpits were answered");

        // Nothing of the tarpits is lost: each event is delivered once its origin answers.
        await().atMost(PATIENCE).until(() -> tarpits.stream().allMatch(t -> Db.queued(pool, t) == 0));
        tarpits.forEach(t -> assertEquals(List.of("tarpit-" + t), origin.providerIds(t)));
        assertTrue(origin.maxConcurrent() <= 2 * DeliveryProfile.BULKHEAD,
                "at most the slots and the slow lane: " + origin.maxConcurrent());
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
