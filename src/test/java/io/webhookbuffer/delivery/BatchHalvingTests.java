package io.webhookbuffer.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** A tenant's isolation state between answers: halving, holding aside, the probe behind a held event. */
class BatchHalvingTests {

    private static final OriginHealth HEALTHY = new OriginHealth();

    @Test
    void aSuspectSplitHalvesAndBypassesTheBreakerUntilSettledAndSuccessDoublesBack() {
        BatchHalving isolation = new BatchHalving(8);
        isolation.split(FailurePolicy.Verdict.SUSPECT, 4);
        assertTrue(isolation.halving());
        assertEquals(4, isolation.limit());
        isolation.split(FailurePolicy.Verdict.SUSPECT, 2);
        isolation.delivered();
        assertFalse(isolation.halving());
        assertEquals(4, isolation.limit());
        isolation.delivered();
        isolation.delivered();
        assertEquals(8, isolation.limit(), "never above the batch size");
    }

    @Test
    void aRefusalHalvesWithoutMarkingTheTriesAsIsolation() {
        BatchHalving isolation = new BatchHalving(8);
        isolation.split(FailurePolicy.Verdict.REFUSED, 4);
        assertFalse(isolation.halving());
        assertEquals(4, isolation.limit());
    }

    @Test
    void theBatchAfterAHeldEventProbesAndItsSuspectFailureMarksTheTenantFailingUntilADelivery() {
        BatchHalving isolation = new BatchHalving(8);
        isolation.split(FailurePolicy.Verdict.SUSPECT, 1);
        isolation.heldAside(true);
        assertEquals(8, isolation.limit());
        FailurePolicy.Context probe = isolation.context(HEALTHY, false, 0);
        assertTrue(probe.probe());
        assertFalse(isolation.context(HEALTHY, true, 0).probe(), "the held event's own try is not the probe");
        isolation.failed(FailurePolicy.Verdict.SUSPECT, false);
        FailurePolicy.Context after = isolation.context(HEALTHY, false, 0);
        assertFalse(after.probe());
        assertTrue(after.tenantFailing());
        isolation.delivered();
        assertFalse(isolation.context(HEALTHY, false, 0).tenantFailing());
    }

    @Test
    void afterADeliveryTheBatchBehindANewlyHeldEventGoesOnHalvingInsteadOfProbing() {
        BatchHalving isolation = new BatchHalving(8);
        isolation.split(FailurePolicy.Verdict.SUSPECT, 4);
        isolation.delivered(); // the first half was accepted: the tenant is served
        isolation.split(FailurePolicy.Verdict.SUSPECT, 1);
        isolation.heldAside(true);
        assertTrue(isolation.halving(), "a second poison behind the first is halved down to one event too");
        assertFalse(isolation.context(HEALTHY, false, 0).probe());
        assertEquals(8, isolation.limit());
        isolation.split(FailurePolicy.Verdict.SUSPECT, 1);
        isolation.heldAside(true);
        assertFalse(isolation.halving(), "no delivery since the last hold: the next batch probes");
        assertTrue(isolation.context(HEALTHY, false, 0).probe());
    }

    @Test
    void aHeldEventsOwnRetryLeavesTheTenantsStateAsItWas() {
        BatchHalving isolation = new BatchHalving(8);
        isolation.split(FailurePolicy.Verdict.SUSPECT, 2);
        isolation.heldAside(false);
        assertTrue(isolation.halving());
        assertEquals(2, isolation.limit());
    }

    @Test
    void aFailingTenantsRetryHalvesTheNextTryAndADeadLetterAtTheBottomStartsAgainFull() {
        BatchHalving isolation = new BatchHalving(8);
        isolation.split(FailurePolicy.Verdict.SUSPECT, 1);
        isolation.heldAside(true);
        isolation.failed(FailurePolicy.Verdict.SUSPECT, false); // the probe failed
        isolation.retried(8, 4);
        assertEquals(4, isolation.limit());
        isolation.retried(4, 4);
        assertEquals(4, isolation.limit(), "a retry that does not halve leaves the size");
        isolation.retried(2, 1);
        isolation.deadLettered();
        assertEquals(8, isolation.limit());
    }
}
