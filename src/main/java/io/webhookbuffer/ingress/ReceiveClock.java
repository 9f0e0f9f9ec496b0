package io.webhookbuffer.ingress;

import jakarta.enterprise.context.ApplicationScoped;

/**
 * The ingress's wall clock: a request's receive time, which signed provider timestamps are checked against and
 * which is stamped on the event. A bean so that a test can replay a provider's recorded request at its own time.
 */
@ApplicationScoped
public class ReceiveClock {

    /** Now, in epoch milliseconds. */
    public long millis() {
        return System.currentTimeMillis();
    }
}
