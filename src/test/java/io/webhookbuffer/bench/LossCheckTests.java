package io.webhookbuffer.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

/** lost = accepted ids − ids at the origin, per tenant, whatever else the origin holds. */
class LossCheckTests {

    @Test
    void nothingLostWhenTheOriginHasEveryAcceptedEventAndMore() {
        LossCheck check = LossCheck.compare(List.of("a\t1", "a\t2", "b\t1"), Set.of("a\t1", "a\t2", "b\t1", "c\t9"));
        assertEquals(new LossCheck(3, 3, 0, List.of()), check);
    }

    @Test
    void countsEachMissingEventAndNamesThem() {
        LossCheck check = LossCheck.compare(List.of("a\t1", "a\t2", "b\t1", "b\t2"), Set.of("a\t1", "b\t2"));
        assertEquals(4, check.accepted());
        assertEquals(2, check.delivered());
        assertEquals(2, check.lost());
        assertEquals(Set.of("a\t2", "b\t1"), new HashSet<>(check.lostSample()));
    }

    @Test
    void theSameEventIdUnderAnotherTenantIsAnotherEvent() {
        LossCheck check = LossCheck.compare(List.of("a\t1", "b\t1"), Set.of("a\t1"));
        assertEquals(1, check.lost());
        assertEquals(List.of("b\t1"), check.lostSample());
    }

    @Test
    void anIdAcceptedTwiceInTheFilesCountsOnce() {
        LossCheck check = LossCheck.compare(List.of("a\t1", "a\t1", "a\t2"), Set.of("a\t1"));
        assertEquals(2, check.accepted());
        assertEquals(1, check.lost());
    }

    @Test
    void theSampleIsCappedButTheCountIsNot() {
        List<String> accepted = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            accepted.add("t\t" + i);
        }
        LossCheck check = LossCheck.compare(accepted, Set.of());
        assertEquals(1000, check.lost());
        assertEquals(LossCheck.SAMPLE, check.lostSample().size());
        assertTrue(accepted.containsAll(check.lostSample()));
    }
}
