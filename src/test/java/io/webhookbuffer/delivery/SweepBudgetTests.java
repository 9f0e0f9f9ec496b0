package io.webhookbuffer.delivery;

import static io.webhookbuffer.testsupport.TestTenants.tenant;
import static org.awaitility.Awaitility.await;
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
import io.vertx.mutiny.sqlclient.Tuple;
import io.webhookbuffer.testsupport.Db;
import io.webhookbuffer.testsupport.FakeOrigin;
import io.webhookbuffer.testsupport.InjectFakeOrigin;

/**
 * A backlog across many tenants with no new traffic (a restart after an outage): one sweep wakes only as many drains
 * as its budget allows (16 per delivery slot; one slot here) and refills as they finish, until every tenant is drained.
 */
@QuarkusTest
@TestProfile(OneSlotShortAgeProfile.class)
class SweepBudgetTests {

    private static final Duration PATIENCE = Duration.ofSeconds(30);
    private static final int TENANTS = 3 * OneSlotShortAgeProfile.SWEEP_BATCH;
    private static final int EVENTS_EACH = 4;

    @InjectFakeOrigin
    FakeOrigin origin;

    @Inject
    Pool pool;

    @Inject
    Drainer drainer;

    @Test
    void oneSweepDrainsEveryTenantWithinItsBudget() {
        List<String> tenants = IntStream.range(0, TENANTS).mapToObj(i -> tenant().provision()).toList();
        for (String t : tenants) {
            // Rows written before a restart: no actor wakes the drainer, only the sweep finds them.
            pool.preparedQuery("""
                    INSERT INTO event_queue (tenant_id, event_id, body, content_type, received_at, next_attempt_at)
                    SELECT $1, 'swept-' || g, convert_to('{}', 'UTF8'), 'application/json', now(), now()
                    FROM generate_series(1, $2) g""").execute(Tuple.of(t, EVENTS_EACH)).await().indefinitely();
        }
        AtomicInteger mostActive = new AtomicInteger();

        drainer.sweep(); // the interval is an hour: this one call, and the refills it chains, must drain them all

        await().atMost(PATIENCE).pollInterval(Duration.ofMillis(5)).until(() -> {
            mostActive.accumulateAndGet(drainer.activeDrains(), Math::max);
            return tenants.stream().allMatch(t -> origin.providerIds(t).size() == EVENTS_EACH && Db.queued(pool, t) == 0);
        });
        assertTrue(mostActive.get() <= OneSlotShortAgeProfile.SWEEP_BATCH,
                "at most " + OneSlotShortAgeProfile.SWEEP_BATCH + " drains at once, saw " + mostActive.get());
    }
}
