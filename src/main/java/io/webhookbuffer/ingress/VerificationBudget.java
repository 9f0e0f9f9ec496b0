package io.webhookbuffer.ingress;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

import io.webhookbuffer.tenant.TenantDirectory;

/**
 * The failed-verification guard: 401s counted per tenant over a sliding window, so that a flood of bad signatures
 * aimed at a tenant costs the buffer little and costs only that tenant. Past the tenant's count at most
 * {@link #GUARDED_CONCURRENCY} of its large-body verifications run at once ({@link #permit}); its small bodies are
 * always verified, since a MAC of a few KiB costs microseconds. Nothing here ever refuses a request before its
 * signature is checked for what other requests did: a provider's addresses carry the forgeries an attacker points at
 * a tenant and that tenant's genuine events alike, and a refusal of a genuine event is a lost event for a provider
 * that never retries (ARCHITECTURE invariant 9; an earlier per-address budget did exactly that). A tenant's count
 * weighs a 401 by the bytes its MAC had to read ({@link #weight}), so that a few forged 15 MB bodies guard it as
 * surely as two hundred small ones: each cost the same MAC work. The cache is bounded (Caffeine, as large as the
 * tenant cache, idle entries expire after two windows). Thread-safe.
 */
@ApplicationScoped
public class VerificationBudget {

    /*
     * Why a guard beside the fair shares, and why its numbers are not settings. The fair shares bound what a tenant
     * holds at once: half of what the others leave of the pool's places (32 of 64 alone) and of the bytes in flight
     * (32 MiB alone). They know nothing of failures, so under a flood of forged bodies of a MiB the tenant's share keeps
     * 32 of them in transfer and MAC, queued ahead of other tenants' large bodies on the pool (first come, first
     * served). The guard narrows a tenant that has shown it is under a flood to 2 at once; until then it costs nothing.
     * Its three numbers describe what a flood is, not a deployment: no operator has a reason to move them, and one who
     * lowered them would refuse genuine large bodies sooner (docs/architecture.md, "What an unauthenticated request
     * costs").
     */

    /** The sliding window over which a tenant's 401s are counted. Was {@code buffer.ingress.verification.failure-window}. */
    static final Duration FAILURE_WINDOW = Duration.ofSeconds(60);

    /**
     * 401s a tenant may earn in {@link #FAILURE_WINDOW} from all addresses together, weighed by the MAC work each cost
     * ({@link #weight}); past it the tenant is under a flood until its failures in the window fall below this again.
     * 200 a minute is far above what a misconfigured genuine sender earns (one per event it sends), and one forged body
     * of 13 MiB reaches it. Was {@code buffer.ingress.verification.max-failures-per-tenant}.
     */
    static final int MAX_FAILURES = 200;

    /**
     * Large-body verifications at once for a tenant under a flood (the rest 503 {@code verification_busy} before the
     * MAC): as many as the pool's default threads, so a genuine large body still gets through between the forgeries.
     * Was {@code buffer.ingress.verification.guarded-concurrency}.
     */
    static final int GUARDED_CONCURRENCY = 2;

    /** A slot of a tenant's verification concurrency; {@link #release()} exactly once. */
    interface Permit {
        void release();
    }

    private static final Permit FREE = () -> {
    };

    private final long windowNanos;
    private final int perTenant;
    private final int guardedConcurrency;
    private final int weightUnit;
    private final LongSupplier nanos;
    private final Cache<String, TenantState> tenants;

    @Inject
    public VerificationBudget(IngressConfig config) {
        this(MAX_FAILURES, GUARDED_CONCURRENCY, config.verification().offloadBytes(), TenantDirectory.CACHE_SIZE,
                System::nanoTime);
    }

    /**
     * A guard at {@code perTenant} failures and {@code guarded} verifications at once (tests), a failure weighing one
     * per started {@code weightUnit} bytes MACed.
     */
    VerificationBudget(int perTenant, int guarded, int weightUnit, long maxTenants, LongSupplier nanos) {
        this.windowNanos = FAILURE_WINDOW.toNanos();
        this.perTenant = perTenant;
        this.guardedConcurrency = guarded;
        this.weightUnit = Math.max(1, weightUnit);
        this.nanos = nanos;
        Duration idle = FAILURE_WINDOW.multipliedBy(2);
        this.tenants = Caffeine.newBuilder().maximumSize(maxTenants)
                .expireAfterAccess(idle.toNanos(), TimeUnit.NANOSECONDS).build();
    }

    /**
     * A slot for one large-body verification of this tenant, or null when the tenant is under a flood and
     * {@link #GUARDED_CONCURRENCY} of them are running already.
     */
    Permit permit(String tenantId) {
        TenantState state = tenants.getIfPresent(tenantId);
        if (state == null || state.failures.count(nanos.getAsLong()) < perTenant) {
            return FREE;
        }
        AtomicInteger running = state.guarded;
        if (running.incrementAndGet() > guardedConcurrency) {
            running.decrementAndGet();
            return null;
        }
        return running::decrementAndGet;
    }

    /** One 401 for this tenant with no body MACed (a handshake, a tenant with no scheme). */
    void failed(String tenantId) {
        failed(tenantId, 0);
    }

    /**
     * One 401 for this tenant, after MACs over {@code bodyBytes} in all (the body's bytes once per secret MACed) that
     * did not match (0: none ran): the tenant's count grows by its {@link #weight}.
     */
    void failed(String tenantId, long bodyBytes) {
        long now = nanos.getAsLong();
        tenants.get(tenantId, id -> new TenantState(new FailureWindow(windowNanos, now))).failures
                .record(now, weight(bodyBytes));
    }

    /**
     * What a 401 counts for its tenant: one per started {@code offload-bytes} MACed (64 KiB by default), at least one.
     * A forged 15 MB body counts 229 per active secret: the MAC work of 229 bodies of 64 KiB under one secret.
     * Counted alike, the abuse suite's 21 forged 15 MB bodies a round to a tenant allowed 25 MiB (about 300 MB MACed)
     * stayed far below the 200 that guard a tenant, and the MAC work of the first seconds was the legitimate sender's
     * p99 (docs/abuse.md).
     */
    int weight(long bodyBytes) {
        return (int) Math.min(Integer.MAX_VALUE, Math.max(1, (bodyBytes + weightUnit - 1) / weightUnit));
    }

    private record TenantState(FailureWindow failures, AtomicInteger guarded) {
        TenantState(FailureWindow failures) {
            this(failures, new AtomicInteger());
        }
    }
}
