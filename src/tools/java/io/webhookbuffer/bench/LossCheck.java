package io.webhookbuffer.bench;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;

/**
 * The zero-loss proof: every event the buffer answered 202 must be among the events the origin received.
 * Keys are {@code tenantId<TAB>eventId} (dedupe is per tenant, so the same event id under two tenants is two events).
 *
 * @param accepted distinct events answered 202
 * @param delivered how many of those the origin received
 * @param lost accepted and never received
 * @param lostSample a few lost keys, to look for
 */
public record LossCheck(long accepted, long delivered, long lost, List<String> lostSample) {

    static final int SAMPLE = 10;

    static LossCheck compare(Collection<String> acceptedKeys, Set<String> receivedKeys) {
        Set<String> accepted = acceptedKeys instanceof Set<String> set ? set : Set.copyOf(acceptedKeys);
        long delivered = 0;
        List<String> sample = new ArrayList<>();
        for (String key : accepted) {
            if (receivedKeys.contains(key)) {
                delivered++;
            } else if (sample.size() < SAMPLE) {
                sample.add(key);
            }
        }
        return new LossCheck(accepted.size(), delivered, accepted.size() - delivered, List.copyOf(sample));
    }
}
