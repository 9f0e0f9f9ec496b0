package io.webhookbuffer.ingress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

/** The failed-verification guard as a plain object, with a hand-driven clock. */
class VerificationBudgetTests {

    private static final long SECOND = 1_000_000_000L;

    private final AtomicLong now = new AtomicLong(1_000 * SECOND);

    private VerificationBudget budget(int perTenant, int guarded) {
        return new VerificationBudget(perTenant, guarded, 65536, 1000, now::get);
    }

    @Test
    void aFloodedTenantGetsBoundedConcurrencyAndEveryPermitComesBack() {
        VerificationBudget budget = budget(5, 2);
        assertNotNull(budget.permit("t"));
        for (int i = 0; i < 5; i++) {
            budget.failed("t");
        }
        VerificationBudget.Permit first = budget.permit("t");
        VerificationBudget.Permit second = budget.permit("t");
        assertNotNull(first);
        assertNotNull(second);
        assertNull(budget.permit("t"), "a third at once is refused while the tenant is flooded");
        assertNotNull(budget.permit("quiet"), "another tenant is not");
        first.release();
        assertNotNull(budget.permit("t"));
        now.addAndGet(120 * SECOND);
        for (int i = 0; i < 10; i++) {
            assertNotNull(budget.permit("t"), "the flood has left the window: no bound");
        }
    }

    @Test
    void oneForgedLargeBodyGuardsItsTenantAsTheSmallOnesOfTheSameBytesWould() {
        VerificationBudget budget = budget(VerificationBudget.MAX_FAILURES, VerificationBudget.GUARDED_CONCURRENCY);
        budget.failed("t", 15_000_000); // one 15 MB body whose MAC failed: 229 of 64 KiB
        VerificationBudget.Permit first = budget.permit("t");
        VerificationBudget.Permit second = budget.permit("t");
        assertNotNull(first);
        assertNotNull(second);
        assertNull(budget.permit("t"), "the tenant is guarded after one forged 15 MB body");
        first.release();
        second.release();

        budget.failed("u", 1_000); // a small forged body counts once, as before
        assertNotNull(budget.permit("u"));
        assertNotNull(budget.permit("u"));
        assertNotNull(budget.permit("u"), "one small failure does not guard a tenant");
    }

    @Test
    void aFailureWeighsOnePerStartedOffloadUnitAndAtLeastOne() {
        VerificationBudget budget = budget(200, 2);
        assertEquals(1, budget.weight(0));
        assertEquals(1, budget.weight(65_536));
        assertEquals(2, budget.weight(65_537));
        assertEquals(229, budget.weight(15_000_000));
        assertEquals(Integer.MAX_VALUE, budget.weight(Long.MAX_VALUE - 65_536));
    }

    @Test
    void theWindowWeighsTheOlderBucketByWhatIsLeftOfIt() {
        FailureWindow window = new FailureWindow(60 * SECOND, 0);
        for (int i = 0; i < 10; i++) {
            window.record(0, 1);
        }
        assertEquals(10, window.count(59 * SECOND), 1e-9);
        assertEquals(5, window.count(90 * SECOND), 1e-9);
        assertEquals(0, window.count(120 * SECOND), 1e-9);
        window.record(120 * SECOND, 4);
        assertEquals(4, window.count(120 * SECOND), 1e-9, "a weighed failure counts its weight");
    }
}
