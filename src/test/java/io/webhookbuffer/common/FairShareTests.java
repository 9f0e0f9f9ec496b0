package io.webhookbuffer.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The one rule by which tenants share a limited resource (the bytes in flight, the verification pool's places): half
 * of what the others leave. Plain JUnit.
 */
class FairShareTests {

    @Test
    void whatOneTenantTakesNeverRefusesAnother() {
        FairShare share = new FairShare(64);
        int attacker = 0;
        while (share.tryTake("a", 1)) {
            attacker++;
        }
        assertEquals(32, attacker, "a tenant aimed at holds half");
        for (int i = 0; i < 16; i++) {
            assertTrue(share.tryTake("b", 1), "another tenant still has half of what is left: " + i);
        }
        assertFalse(share.tryTake("b", 1));
        assertTrue(share.tryTake("c", 1), "and a third tenant a share of its own");
    }

    @Test
    void aLimitOfOneCanStillBeHeld() {
        FairShare share = new FairShare(1);
        assertTrue(share.tryTake("a", 1));
        assertFalse(share.tryTake("b", 1), "nothing is left");
        share.giveBack("a", 1);
        assertTrue(share.tryTake("b", 1));
    }

    @Test
    void aZeroLimitTakesNothing() {
        assertFalse(new FairShare(0).tryTake("a", 1));
    }

    @Test
    void givenBackUnitsFreeTheShareAndTheEntry() {
        FairShare share = new FairShare(10);
        assertTrue(share.tryTake("a", 5));
        assertFalse(share.tryTake("a", 1));
        share.giveBack("a", 5);
        assertEquals(0, share.holders());
        assertEquals(0, share.held());
        assertTrue(share.tryTake("a", 5));
        assertEquals(5, share.heldBy("a"));
    }
}
