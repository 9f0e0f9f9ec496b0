package io.webhookbuffer.testsupport;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.LongConsumer;

import jakarta.annotation.Priority;
import jakarta.inject.Singleton;
import jakarta.enterprise.inject.Alternative;

import io.vertx.core.Vertx;
import io.webhookbuffer.common.BufferClock;
import io.webhookbuffer.delivery.DrainView;

/**
 * The service's clock in tests: real time plus whatever a test moved it forward by, or a wall time a test pinned.
 *
 * <p>Moving forward: never backwards, so a test that does not touch it sees the system clock, and time skipped by one
 * test only makes waits that were pending then end sooner (the monotonic reading moves too, so rate windows turn with
 * it). Moving it forward fires the timers that are due at once (on an event loop, as Vert.x would), so a backoff, a
 * Retry-After or pacing is waited out in milliseconds. PostgreSQL's clock does not move: rows' due times lag behind
 * this one, so they are due when the drainer's own wait ends.
 *
 * <p>Pinning: the wall time only, so a provider's recorded request (a golden vector with its own receive time) can be
 * replayed through the real endpoint. Tests that pin it unpin it after.
 */
@Alternative
@Priority(1)
@Singleton
public class TestClock extends BufferClock {

    private record Timer(long atMillis, LongConsumer handler, AtomicLong realId) {
    }

    private final Vertx vertx;
    private final AtomicLong skippedMillis = new AtomicLong();
    private volatile long pinnedMillis = -1;
    private final AtomicLong ids = new AtomicLong();
    private final Map<Long, Timer> timers = new ConcurrentHashMap<>();

    public TestClock(Vertx vertx) {
        super(vertx);
        this.vertx = vertx;
    }

    @Override
    public long millis() {
        long pinned = pinnedMillis;
        return pinned < 0 ? super.millis() + skippedMillis.get() : pinned;
    }

    /** The wall time reads {@code epochMillis} until {@link #unpin}; the monotonic reading and timers run on. */
    public void pin(long epochMillis) {
        this.pinnedMillis = epochMillis;
    }

    public void unpin() {
        this.pinnedMillis = -1;
    }

    @Override
    public long nanos() {
        return super.nanos() + skippedMillis.get() * 1_000_000L;
    }

    @Override
    public long setTimer(long delayMillis, LongConsumer handler) {
        long id = ids.incrementAndGet();
        Timer timer = new Timer(millis() + delayMillis, handler, new AtomicLong(-1));
        timers.put(id, timer);
        timer.realId().set(vertx.setTimer(delayMillis, real -> fire(id)));
        return id;
    }

    @Override
    public boolean cancelTimer(long id) {
        Timer timer = timers.remove(id);
        if (timer != null) {
            vertx.cancelTimer(timer.realId().get());
        }
        return timer != null;
    }

    /** Moves time forward by {@code by}; the timers due by then fire now. */
    public void advance(Duration by) {
        skippedMillis.addAndGet(by.toMillis());
        long now = millis();
        timers.forEach((id, timer) -> {
            if (timer.atMillis() <= now && vertx.cancelTimer(timer.realId().get())) {
                vertx.setTimer(1, real -> fire(id));
            }
        });
    }

    /** Moves time forward to {@code epochMillis} (nothing when it has passed); the timers due by then fire now. */
    public void advanceTo(long epochMillis) {
        long by = epochMillis - millis();
        if (by > 0) {
            advance(Duration.ofMillis(by));
        }
    }

    /**
     * Until {@code done} holds (within {@code patience} of real time), skips the tenants' waits: whenever one of them
     * waits (a backoff, a Retry-After, linger, pacing) with no step running, time moves to the end of the first such
     * wait. So the gaps a test measures between one tenant's batches on this clock are its waits plus the real work
     * between them, as without the skip (with several tenants, another's skipped wait may fall inside a step).
     */
    public void skipWaits(Function<String, DrainView> views, List<String> tenants, Duration patience,
            Callable<Boolean> done) {
        await().atMost(patience).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(5)).until(() -> {
            if (done.call()) {
                return true;
            }
            long now = millis();
            long first = Long.MAX_VALUE;
            for (String tenant : tenants) {
                DrainView view = views.apply(tenant);
                if (view != null && !view.running() && view.backoffUntilMillis() > now) {
                    first = Math.min(first, view.backoffUntilMillis());
                }
            }
            if (first != Long.MAX_VALUE) {
                advanceTo(first);
            }
            return false;
        });
    }

    private void fire(long id) {
        Timer timer = timers.remove(id);
        if (timer != null) {
            timer.handler().accept(id);
        }
    }
}
