package io.webhookbuffer.delivery;

import io.smallrye.mutiny.Uni;
import io.webhookbuffer.common.BufferClock;
import io.webhookbuffer.common.FifoPermits;

/**
 * One step's delivery slot against a slow origin (issue 40, fair shares). The main bulkhead is first-come, so origins
 * that answer after seconds (a tarpit, on purpose or not) would hold every slot and make every tenant wait for them.
 * Tenants are therefore classed by what their deliveries cost: an exchange still unanswered past
 * {@link DrainSlots#slowAfterMillis()} marks the tenant slow ({@link #crossed()}), and if a slow-lane permit is free at
 * that moment the batch takes it and gives its main slot back at once. A slow tenant's next steps queue for the slow
 * lane only, until one of its batches is answered under the threshold. So slow origins hold at most the slow lane
 * plus the main slots they held when they turned slow (one request timeout each), and tenants whose origins answer
 * fast keep the main bulkhead; the origins see at most twice {@code max-concurrent} batches at once.
 *
 * <p>No wait happens here, so the lease stays safe: a step still takes its slot (main or slow) before the lease is
 * renewed, and moving lanes mid-exchange only gives a slot back sooner.
 */
final class SlowLane {

    /** For a step that already queued for the slow lane: nothing to move, only the time to watch. */
    private final Runnable giveBackMain;
    private final FifoPermits lane;
    // @protectedby: this
    private boolean ended;
    // @protectedby: this
    private Runnable lanePermit;
    private volatile boolean crossed;

    private SlowLane(Runnable giveBackMain, FifoPermits lane) {
        this.giveBackMain = giveBackMain;
        this.lane = lane;
    }

    /** A step holding a main slot, which {@code giveBackMain} gives back early. */
    static SlowLane onMain(Runnable giveBackMain, FifoPermits lane) {
        return new SlowLane(giveBackMain, lane);
    }

    /** A step that holds a slow-lane permit already. */
    static SlowLane onSlowLane() {
        return new SlowLane(null, null);
    }

    /** {@code exchange}, with the threshold's timer running while it is unanswered. */
    Uni<OriginResponse> watch(Uni<OriginResponse> exchange, BufferClock clock, long thresholdMillis) {
        return Uni.createFrom().deferred(() -> {
            long timer = clock.setTimer(thresholdMillis, id -> cross());
            return exchange.onTermination().invoke(() -> clock.cancelTimer(timer));
        });
    }

    /** The exchange watched was still unanswered at the threshold. */
    boolean crossed() {
        return crossed;
    }

    /** The threshold passed unanswered: move to the slow lane if it has room now; full, the main slot is kept. */
    private void cross() {
        crossed = true;
        if (giveBackMain == null) {
            return;
        }
        Runnable permit = lane.tryTake();
        if (permit == null) {
            return;
        }
        boolean moved;
        synchronized (this) {
            moved = !ended;
            if (moved) {
                lanePermit = permit;
            }
        }
        if (moved) {
            giveBackMain.run();
        } else {
            permit.run(); // the step ended meanwhile
        }
    }

    /** The step ended, however: a slow-lane permit taken on the way is given back (the main slot goes by itself). */
    void ended() {
        Runnable permit;
        synchronized (this) {
            ended = true;
            permit = lanePermit;
            lanePermit = null;
        }
        if (permit != null) {
            permit.run();
        }
    }
}
