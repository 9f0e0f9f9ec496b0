package io.webhookbuffer.ingress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

/** The failed-verification budget as a plain object, with a hand-driven clock. */
class VerificationBudgetTests {

    private static final long SECOND = 1_000_000_000L;

    private final AtomicLong now = new AtomicLong(1_000 * SECOND);

    private VerificationBudget budget(int perAddress, int perTenant, int guarded) {
        return new VerificationBudget(config(perAddress, perTenant, guarded, 1000), 1000, now::get);
    }

    static IngressConfig.Verification config(int perAddress, int perTenant, int guarded, int tracked) {
        return config(perAddress, perTenant, guarded, tracked, false);
    }

    static IngressConfig.Verification config(int perAddress, int perTenant, int guarded, int tracked,
            boolean countPrivate) {
        return new IngressConfig.Verification() {
            public boolean countPrivateAddresses() { return countPrivate; }
            public int offloadBytes() { return 65536; }
            public int threads() { return 2; }
            public int maxPending() { return 64; }
            public Duration failureWindow() { return Duration.ofSeconds(60); }
            public int maxFailuresPerAddress() { return perAddress; }
            public int maxFailuresPerTenant() { return perTenant; }
            public int guardedConcurrency() { return guarded; }
            public int maxTrackedAddresses() { return tracked; }
        };
    }

    @Test
    void theWarmupsRehearsalTenantSpendsNoBudget() {
        VerificationBudget budget = new VerificationBudget(config(3, 3, 1, 1000), 1000, now::get,
                "warmup-x"::equals);
        for (int i = 0; i < 10; i++) {
            budget.failed("warmup-x", "127.0.0.1", 10 * 65536);
        }
        assertEquals(0, budget.addressRetryAfter("warmup-x", "127.0.0.1"), "its address is not refused");
        assertNotNull(budget.permit("warmup-x"));
        assertNotNull(budget.permit("warmup-x"), "nor its large bodies narrowed (one at a time when guarded)");
        for (int i = 0; i < 3; i++) {
            budget.failed("t", "127.0.0.1");
        }
        assertTrue(budget.addressRetryAfter("t", "127.0.0.1") > 0, "another tenant's failures still count");
    }

    @Test
    void anAddressPastItsBudgetIsRefusedUntilTheWindowForgetsItsFailures() {
        VerificationBudget budget = budget(3, 1000, 2);
        for (int i = 0; i < 3; i++) {
            assertEquals(0, budget.addressRetryAfter("t", "192.0.2.1"));
            budget.failed("t", "192.0.2.1");
        }
        long retryAfter = budget.addressRetryAfter("t", "192.0.2.1");
        assertTrue(retryAfter >= 1 && retryAfter <= 120, "Retry-After " + retryAfter);
        // Another address, and the same address at another tenant, are not affected.
        assertEquals(0, budget.addressRetryAfter("t", "192.0.2.2"));
        assertEquals(0, budget.addressRetryAfter("other", "192.0.2.1"));
        // Refusals are not failures: once Retry-After has passed, the address is verified again.
        now.addAndGet(retryAfter * SECOND);
        assertEquals(0, budget.addressRetryAfter("t", "192.0.2.1"));
    }

    @Test
    void theWorstCaseLockOutIsTwoWindows() {
        VerificationBudget budget = budget(3, 1000, 2);
        for (int i = 0; i < 1000; i++) {
            budget.failed("t", "192.0.2.1");
        }
        now.addAndGet(120 * SECOND);
        assertEquals(0, budget.addressRetryAfter("t", "192.0.2.1"));
    }

    @Test
    void aFloodedTenantGetsBoundedConcurrencyAndEveryPermitComesBack() {
        VerificationBudget budget = budget(0, 5, 2);
        assertNotNull(budget.permit("t"));
        for (int i = 0; i < 5; i++) {
            budget.failed("t", null);
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
        VerificationBudget budget = budget(3, 200, 2);
        budget.failed("t", "192.0.2.1", 15_000_000); // one 15 MB body whose MAC failed: 229 of 64 KiB
        VerificationBudget.Permit first = budget.permit("t");
        VerificationBudget.Permit second = budget.permit("t");
        assertNotNull(first);
        assertNotNull(second);
        assertNull(budget.permit("t"), "the tenant is guarded after one forged 15 MB body");
        assertEquals(0, budget.addressRetryAfter("t", "192.0.2.1"), "its address counts one failure, not 229");
        first.release();
        second.release();

        budget.failed("u", null, 1_000); // a small forged body counts once, as before
        assertNotNull(budget.permit("u"));
        assertNotNull(budget.permit("u"));
        assertNotNull(budget.permit("u"), "one small failure does not guard a tenant");
    }

    @Test
    void aFailureWeighsOnePerStartedOffloadUnitAndAtLeastOne() {
        VerificationBudget budget = budget(3, 200, 2);
        assertEquals(1, budget.weight(0));
        assertEquals(1, budget.weight(65_536));
        assertEquals(2, budget.weight(65_537));
        assertEquals(229, budget.weight(15_000_000));
        assertEquals(Integer.MAX_VALUE, budget.weight(Long.MAX_VALUE - 65_536));
    }

    @Test
    void perAddressOffCountsNoAddress() {
        VerificationBudget budget = budget(0, 1000, 2);
        for (int i = 0; i < 100; i++) {
            budget.failed("t", "192.0.2.1");
        }
        assertEquals(0, budget.addressRetryAfter("t", "192.0.2.1"));
    }

    /**
     * A private, loopback, link-local or carrier-grade-NAT peer is most likely a load balancer or a NAT in front of
     * many senders: counting it would let one sender's bad signatures lock every sender behind it out of a tenant
     * (GitHub does not retry a 429). Such peers are not counted unless configured.
     */
    @Test
    void aSharedLookingAddressIsNotCountedUnlessConfigured() {
        VerificationBudget budget = budget(3, 1000, 2);
        for (String shared : new String[] { "10.1.2.3", "172.16.0.9", "192.168.1.1", "127.0.0.1", "100.64.1.1",
                "169.254.1.1", "::1", "fd00::1", "fe80::1" }) {
            assertNull(budget.client(shared), shared);
        }
        assertEquals("192.0.2.7", budget.client("192.0.2.7"));
        assertEquals("2001:db8:1:2::/64", budget.client("2001:db8:1:2::1"));
        VerificationBudget counting = new VerificationBudget(config(3, 1000, 2, 1000, true), 1000, now::get);
        assertEquals("10.1.2.3", counting.client("10.1.2.3"));
        assertEquals("127.0.0.1", counting.client("127.0.0.1"));
    }

    @Test
    void anIpv6ClientCountsByItsSlash64() {
        VerificationBudget budget = budget(3, 1000, 2);
        assertEquals("2001:db8:1:2::/64", budget.client("2001:db8:1:2:aaaa:bbbb:cccc:dddd"));
        assertEquals(budget.client("2001:db8:1:2::1"), budget.client("2001:db8:1:2:ffff::9"));
        assertEquals("192.0.2.7", budget.client("192.0.2.7"));
        assertEquals("not:an:address:zz", budget.client("not:an:address:zz"));
        assertEquals("host.example", budget.client("host.example"), "a name is never looked up");
    }

    @Test
    void theWindowWeighsTheOlderBucketByWhatIsLeftOfIt() {
        FailureWindow window = new FailureWindow(60 * SECOND, 0);
        for (int i = 0; i < 10; i++) {
            window.record(0);
        }
        assertEquals(10, window.count(59 * SECOND), 1e-9);
        assertEquals(5, window.count(90 * SECOND), 1e-9);
        assertEquals(0, window.secondsUntilBelow(6, 90 * SECOND));
        assertEquals(0, window.count(120 * SECOND), 1e-9);
        window = new FailureWindow(60 * SECOND, 0);
        for (int i = 0; i < 10; i++) {
            window.record(0);
        }
        long wait = window.secondsUntilBelow(6, 60 * SECOND);
        assertTrue(window.count((60 + wait) * SECOND) < 6, "after Retry-After " + wait + " s it is below the limit");
        assertTrue(window.count((60 + wait - 1) * SECOND) >= 5, "and not much earlier");
    }
}
