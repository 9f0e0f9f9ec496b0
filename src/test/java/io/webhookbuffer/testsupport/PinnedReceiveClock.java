package io.webhookbuffer.testsupport;

import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Alternative;

import io.webhookbuffer.ingress.ReceiveClock;

/**
 * The ingress clock in tests: the system clock unless a test pins it, so a provider's recorded request (a golden
 * vector with its own receive time) can be replayed through the real endpoint. Tests that pin it unpin it after.
 */
@Alternative
@Priority(1)
@ApplicationScoped
public class PinnedReceiveClock extends ReceiveClock {

    private volatile long pinnedMillis = -1;

    @Override
    public long millis() {
        long pinned = pinnedMillis;
        return pinned < 0 ? super.millis() : pinned;
    }

    public void pin(long epochMillis) {
        this.pinnedMillis = epochMillis;
    }

    public void unpin() {
        this.pinnedMillis = -1;
    }
}
