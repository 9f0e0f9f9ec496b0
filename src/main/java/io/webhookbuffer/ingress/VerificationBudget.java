package io.webhookbuffer.ingress;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;
import java.util.function.Predicate;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

import io.vertx.core.net.SocketAddress;
import io.webhookbuffer.tenant.RehearsalTenant;

/**
 * The failed-verification budget: 401s counted per tenant and per (tenant, client address) over a sliding window, so
 * that a flood of bad signatures costs the buffer little once it is recognised. Past the address's budget its requests
 * to that tenant are refused before any MAC ({@link #addressRetryAfter}); past the tenant's, at most
 * {@code guarded-concurrency} of its large-body verifications run at once ({@link #permit}). A tenant's count weighs
 * a 401 by the bytes its MAC had to read ({@link #weight}), so that a few forged 15 MB bodies guard it as surely as
 * two hundred small ones: each cost the same MAC work. Both caches are bounded
 * (Caffeine, size-capped, idle entries expire after two windows). Thread-safe. {@link IngressGate} asks about the
 * address before it reads the body, {@link IngestService} again before the MAC.
 */
@ApplicationScoped
public class VerificationBudget {

    /** A slot of a tenant's verification concurrency; {@link #release()} exactly once. */
    interface Permit {
        void release();
    }

    private static final Permit FREE = () -> {
    };

    private final long windowNanos;
    private final int perAddress;
    private final int perTenant;
    private final int guardedConcurrency;
    private final int weightUnit;
    private final boolean countPrivate;
    private final LongSupplier nanos;
    private final Cache<String, FailureWindow> addresses;
    private final Cache<String, TenantState> tenants;
    private final Predicate<String> uncounted;

    @Inject
    public VerificationBudget(IngressConfig config, RehearsalTenant rehearsal) {
        this(config.verification(), config.verification().maxTrackedAddresses(), System::nanoTime, rehearsal::is);
    }

    VerificationBudget(IngressConfig.Verification config, int maxTenants, LongSupplier nanos) {
        this(config, maxTenants, nanos, id -> false);
    }

    /**
     * {@code uncounted}: the warm-up's rehearsal tenant, whose rehearsed bad signatures (warmup.RefusalRehearsal)
     * would otherwise spend the loopback address's budget and refuse the signed rehearsal beside them.
     */
    VerificationBudget(IngressConfig.Verification config, int maxTenants, LongSupplier nanos,
            Predicate<String> uncounted) {
        this.uncounted = uncounted;
        this.windowNanos = config.failureWindow().toNanos();
        this.perAddress = config.maxFailuresPerAddress();
        this.perTenant = config.maxFailuresPerTenant();
        this.guardedConcurrency = config.guardedConcurrency();
        this.weightUnit = Math.max(1, config.offloadBytes());
        this.countPrivate = config.countPrivateAddresses();
        this.nanos = nanos;
        Duration idle = config.failureWindow().multipliedBy(2);
        this.addresses = Caffeine.newBuilder().maximumSize(config.maxTrackedAddresses())
                .expireAfterAccess(idle.toNanos(), TimeUnit.NANOSECONDS).build();
        this.tenants = Caffeine.newBuilder().maximumSize(maxTenants)
                .expireAfterAccess(idle.toNanos(), TimeUnit.NANOSECONDS).build();
    }

    /** 0 when this address may be verified for this tenant, else the {@code Retry-After} of its 429. */
    long addressRetryAfter(String tenantId, String address) {
        if (perAddress == 0 || address == null || uncounted.test(tenantId)) {
            return 0;
        }
        FailureWindow window = addresses.getIfPresent(key(tenantId, address));
        return window == null ? 0 : window.secondsUntilBelow(perAddress, nanos.getAsLong());
    }

    /**
     * A slot for one large-body verification of this tenant, or null when the tenant is under a flood and
     * {@code guarded-concurrency} of them are running already.
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

    /** One 401 from this address to this tenant, with no body MACed (a handshake, a tenant with no scheme). */
    void failed(String tenantId, String address) {
        failed(tenantId, address, 0);
    }

    /**
     * One 401 from this address to this tenant, after MACs over {@code bodyBytes} in all (the body's bytes once per
     * secret MACed) that did not match (0: none ran):
     * the tenant's count grows by its {@link #weight}, the address's by one (an address is refused outright past its
     * budget, so a weight there would lock out a sender with a misconfigured secret sooner, where the tenant's guard
     * only narrows its large bodies).
     */
    void failed(String tenantId, String address, long bodyBytes) {
        if (uncounted.test(tenantId)) {
            return;
        }
        long now = nanos.getAsLong();
        tenants.get(tenantId, id -> new TenantState(new FailureWindow(windowNanos, now))).failures
                .record(now, weight(bodyBytes));
        if (perAddress > 0 && address != null) {
            addresses.get(key(tenantId, address), k -> new FailureWindow(windowNanos, now)).record(now);
        }
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

    /** The client of a request as the budget counts it (see {@link #client(String)}); null when not counted. */
    String client(SocketAddress peer) {
        return peer == null ? null : client(peer.hostAddress());
    }

    /**
     * The address a budget counts, or null for one it does not: a private, loopback, link-local or carrier-grade-NAT
     * peer is most likely a load balancer or a NAT with many senders behind it, and counting it would let one
     * sender's bad signatures lock all of them out of a tenant (a provider that never retries loses those events).
     * Such peers count only with {@code count-private-addresses}; behind a proxy, {@code quarkus.http.proxy.*} makes
     * the peer the client the proxy names. An IPv6 address counts by its /64.
     */
    String client(String hostAddress) {
        if (hostAddress == null) {
            return null;
        }
        InetAddress address = literal(hostAddress);
        if (address == null) {
            return hostAddress;
        }
        if (!countPrivate && shared(address)) {
            return null;
        }
        return prefix(address, hostAddress);
    }

    /** An IPv4 address as it is, an IPv6 address by its /64 (one subscriber's block). */
    static String prefix(String hostAddress) {
        InetAddress address = literal(hostAddress);
        return address == null ? hostAddress : prefix(address, hostAddress);
    }

    private static String prefix(InetAddress address, String hostAddress) {
        byte[] bytes = address.getAddress();
        if (bytes.length != 16) {
            return hostAddress;
        }
        StringBuilder prefix = new StringBuilder(20);
        for (int i = 0; i < 8; i += 2) {
            prefix.append(Integer.toHexString(((bytes[i] & 0xff) << 8) | (bytes[i + 1] & 0xff))).append(':');
        }
        return prefix.append(":/64").toString();
    }

    /** Private (RFC 1918, IPv6 unique local), loopback, link-local, unspecified or carrier-grade NAT (100.64/10). */
    static boolean shared(InetAddress address) {
        byte[] b = address.getAddress();
        boolean cgnat = b.length == 4 && (b[0] & 0xff) == 100 && (b[1] & 0xc0) == 64;
        boolean uniqueLocal = b.length == 16 && (b[0] & 0xfe) == 0xfc;
        return address.isLoopbackAddress() || address.isSiteLocalAddress() || address.isLinkLocalAddress()
                || address.isAnyLocalAddress() || cgnat || uniqueLocal;
    }

    /** The address a literal names, or null when it is not one (never a name lookup). */
    private static InetAddress literal(String hostAddress) {
        boolean v6 = hostAddress.indexOf(':') >= 0;
        for (int i = 0; i < hostAddress.length(); i++) {
            char c = hostAddress.charAt(i);
            boolean allowed = c >= '0' && c <= '9' || c == '.' || v6 && (c == ':' || Character.digit(c, 16) >= 0);
            if (!allowed) {
                return null; // not a literal: InetAddress would look the name up
            }
        }
        try {
            // A literal (the server's own rendering of the peer or of a trusted proxy's header): no name lookup.
            return InetAddress.getByName(hostAddress);
        } catch (UnknownHostException e) {
            return null;
        }
    }

    private static String key(String tenantId, String address) {
        return tenantId + ' ' + address;
    }

    private record TenantState(FailureWindow failures, AtomicInteger guarded) {
        TenantState(FailureWindow failures) {
            this(failures, new AtomicInteger());
        }
    }
}
