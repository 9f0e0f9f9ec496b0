package io.webhookbuffer.tenant;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.DoubleSupplier;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import io.webhookbuffer.common.ConfigCheck;

import com.github.benmanes.caffeine.cache.AsyncCacheLoader;
import com.github.benmanes.caffeine.cache.AsyncLoadingCache;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Scheduler;

/**
 * Ingress's view of tenants: Caffeine in front of PostgreSQL (the system of record).
 *
 * <p>How a change reaches the cache: through Redis at once ({@link TenantInvalidation}); and, whatever Redis does,
 * within {@code buffer.tenants.cache-refresh}, because every replica asks PostgreSQL that often which tenants' rows
 * changed since its last look (one indexed query, however many tenants are cached) and reloads those it holds, in the
 * background, the cached row serving until the new one is in ({@link #changed}). A cached tenant
 * is dropped {@code buffer.tenants.cache-ttl} after it was loaded (the bound for a row changed without touching
 * {@code updated_at}), and reloaded in the background between three quarters and seven eighths of that while in use,
 * so a busy tenant never waits for its reload. Reloading every cached tenant at the change-poll's pace instead cost
 * 200 queries a second with 1,000 tenants, a quarter of the server's CPU per event (docs/performance-log.md).
 *
 * <p>Two details keep a reload from disturbing the hot path (docs/performance-log.md): each reload waits a random part
 * of an eighth of the TTL before it starts, so tenants first seen together (the first traffic after a start) do not
 * reload in one wave every TTL for as long as the process lives; and every future the cache holds is a plain
 * {@link CompletableFuture}, whichever client completed it, so the compiled ingest path meets one future class only,
 * before and after the first reload.
 *
 * <p>A tenant's secrets are stored sealed (AES-256-GCM, {@code secrets}); {@link TenantRepository} opens them as it
 * loads the row, so the cache holds them opened, in memory only, and a request never decrypts: the cost (a few
 * microseconds) is paid once per load or reload, not per event.
 *
 * <p>An id that is not in the database is never cached as known: it goes to a separate, short, size-bounded
 * negative cache. Background refreshes take turns ({@code buffer.tenants.max-concurrent-refreshes}), so a wave of them
 * never crowds the group commit out of the shared pool.
 *
 * <p>A miss (an id neither cache holds) spends the miss budget ({@code buffer.tenants.miss-budget.*},
 * {@link LookupBudget}): a few queries at once, a short bounded queue, a rate. Random ids never repeat, so the negative
 * cache cannot stop a flood of them; the budget bounds what the flood costs PostgreSQL and how much of the pool it
 * holds, and a miss beyond it fails with {@link LookupRefused} without a query (ingress: 503 {@code lookup_busy} with
 * {@code Retry-After}, never 404, since the id was not looked up; a refusal is not cached, the retry asks again).
 * Waiting a little before refusing lets a burst of genuine first-seen tenants (the first traffic after a start) through
 * in turn instead of refusing all but two. Cached tenants never meet the budget: a hit completes at once, and their
 * background refresh takes the refresh limiter's turns instead (the cached value serves meanwhile); and a tenant this
 * replica knew within ten cache TTLs that misses (forgotten after a change, or expired while idle) is reloaded without
 * the budget, since only a found tenant is remembered so and invented ids cannot be. Identical
 * concurrent misses are coalesced by the cache (one load per id), so a burst to one id spends one turn. The origin
 * pull-through has a budget of its own (the bulkhead, {@code buffer.tenants.origin-pull.*}), so a slow origin cannot
 * hold the database's turns.
 */
@ApplicationScoped
public class TenantDirectory {

    private static final Logger LOG = Logger.getLogger(TenantDirectory.class);

    /**
     * Each look at changed rows reaches this far before the previous one. updated_at is stamped by the replica that
     * made the change, from its own clock, before its transaction commits: a change that commits just after a look,
     * or comes from a replica whose clock runs behind the database's by less than this, is still found.
     */
    static final Duration LOOK_BACK = Duration.ofSeconds(10);

    private final AsyncLoadingCache<String, Tenant> known;
    private final Cache<String, Boolean> unknown;
    /**
     * Ids this replica found to be tenants in the last ten cache TTLs: when such an id misses (the change poll or
     * Redis dropped it, or it expired while idle) its reload skips the budgets. Only a load that found a tenant adds
     * one, so invented ids cannot get in, and there are at most as many as tenants (bounded by cache-size).
     */
    private final Cache<String, Boolean> recentlyKnown;
    private final RefreshLimiter refreshes;
    private final LookupBudget misses;
    private final LookupBudget originQuestions;
    private final RehearsalTenant rehearsal;
    private final TenantRepository repository;
    private final OriginTenantSource originSource;
    private final boolean originPull;
    private final Duration lookupTimeout;
    /** Numbers the changes this replica heard of, in order. */
    private final AtomicLong changes = new AtomicLong();
    /**
     * Per tenant, the last change whose reload was applied and the last one that found the tenant not held, for as
     * long as a reload can still be running (five minutes; the pool's own timeout is 30 s); at most cache-size ids.
     */
    private final Cache<String, ChangeMarks> marks;

    /** A tenant's last applied change and last change that found it absent (0: none). */
    private record ChangeMarks(long applied, long absent) {
        ChangeMarks absentAt(long change) {
            return new ChangeMarks(applied, Math.max(absent, change));
        }
    }
    /** The database's time of the last look at changed rows (the first look starts from when this cache began). */
    private volatile OffsetDateTime lastLook = OffsetDateTime.now(ZoneOffset.UTC);

    public TenantDirectory(TenantConfig config, TenantRepository repository, OriginTenantSource originSource,
            @ConfigProperty(name = "quarkus.datasource.reactive.max-size", defaultValue = "20") int poolSize,
            RehearsalTenant rehearsal) {
        problems(config, poolSize).throwIfAny();
        this.rehearsal = rehearsal;
        this.repository = repository;
        this.originSource = originSource;
        this.originPull = config.originPull().enabled();
        this.lookupTimeout = requestDeadline(config.lookupTimeout(), config.originPull().enabled(),
                config.originPull().maxWait(), config.originPull().timeout());
        this.refreshes = new RefreshLimiter(config.maxConcurrentRefreshes());
        TenantConfig.MissBudget miss = config.missBudget();
        this.misses = LookupBudget.of("tenant miss budget", miss.maxConcurrent(), miss.maxWaiting(), miss.maxWait(),
                miss.perSecond());
        TenantConfig.OriginPull pull = config.originPull();
        this.originQuestions = LookupBudget.of("origin pull-through bulkhead", pull.maxConcurrent(), pull.maxWaiting(),
                pull.maxWait(), 0);
        this.known = Caffeine.newBuilder()
                .maximumSize(config.cacheSize())
                .refreshAfterWrite(config.cacheTtl().multipliedBy(3).dividedBy(4))
                .scheduler(Scheduler.systemScheduler()) // expired tenants leave memory on time, idle or not
                .expireAfterWrite(config.cacheTtl())
                .buildAsync(new AsyncCacheLoader<String, Tenant>() {
                    @Override
                    public CompletableFuture<Tenant> asyncLoad(String id, Executor executor) {
                        // A miss: a request waits for it (at most lookup-timeout, in find), so it never takes the
                        // refreshes' turns. An id known a moment ago goes straight to the database; any other spends
                        // the miss budget.
                        return plain(load(id, recentlyKnown.getIfPresent(id) != null));
                    }

                    @Override
                    public CompletableFuture<Tenant> asyncReload(String id, Tenant old, Executor executor) {
                        // A refresh: the cached value keeps serving meanwhile, so it can wait its turn. It starts
                        // on the JDK's delay thread (it only submits a query), not a thread of its own (LookupBudget.of).
                        Executor later = CompletableFuture.delayedExecutor(
                                reloadDelayMillis(config.cacheTtl(), ThreadLocalRandom.current()::nextDouble),
                                TimeUnit.MILLISECONDS, Runnable::run);
                        return CompletableFuture.supplyAsync(
                                () -> refreshes.submit(() -> load(id, true)), later)
                                .thenCompose(reload -> reload);
                    }
                });
        this.marks = Caffeine.newBuilder()
                .maximumSize(config.cacheSize())
                .expireAfterWrite(Duration.ofMinutes(5))
                .build();
        this.recentlyKnown = Caffeine.newBuilder()
                .maximumSize(config.cacheSize())
                .expireAfterWrite(config.cacheTtl().multipliedBy(10))
                .build();
        this.unknown = Caffeine.newBuilder()
                .maximumSize(config.negativeCacheSize())
                .expireAfterWrite(config.negativeCacheTtl())
                .scheduler(Scheduler.systemScheduler())
                .build();
    }

    /** Completes with the tenant (active or not), or with null when the id is unknown. */
    public CompletionStage<Tenant> find(String tenantId) {
        Tenant rehearsing = rehearsal.lookup(tenantId);
        if (rehearsing != null) {
            return CompletableFuture.completedFuture(rehearsing); // the warm-up's: never in the database or the cache
        }
        if (unknown.getIfPresent(tenantId) != null) {
            return CompletableFuture.completedFuture(null);
        }
        // A hit is complete: no deadline. A load is shared by every request for the id and stays
        // in the cache until it ends; each request stops waiting for it at lookup-timeout.
        CompletableFuture<Tenant> cached = known.get(tenantId);
        return (cached.isDone() ? cached : withDeadline(cached, lookupTimeout)).thenApply(tenant -> {
            if (tenant == null) {
                unknown.put(tenantId, Boolean.TRUE);
            }
            return tenant;
        });
    }

    /**
     * Reloads the cached tenants whose rows changed since the last look (and the one before, see {@link #LOOK_BACK}).
     * A failed look is retried from the same point at the next interval.
     */
    @Scheduled(every = "${buffer.tenants.cache-refresh:5s}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = Scheduled.ApplicationNotRunning.class,
            identity = "tenant-changes")
    Uni<Void> followChanges() {
        return Uni.createFrom().completionStage(() -> repository.changedSince(lastLook.minus(LOOK_BACK)))
                .invoke(changes -> {
                    changes.tenantIds().forEach(this::changed);
                    lastLook = changes.polledAt();
                })
                .onFailure().invoke(failure -> LOG.warnf("looking for changed tenants failed, retrying next interval: %s",
                        failure.getMessage()))
                .onFailure().recoverWithNull()
                .replaceWithVoid();
    }

    /**
     * The tenant's row changed: reloads it now if this replica holds it, and completes when the cache holds the new
     * row or has forgotten the tenant, within {@code lookup-timeout}. Meanwhile the cached tenant keeps serving, so no
     * request waits for the reload (a forgotten tenant was reloaded on the request path, into the shared pool without
     * the miss budget: with the pool busy, its sender waited up to the pool's 30 s for a connection, two or three times
     * per change per replica, once per look that saw the change). Failure policy: fail closed. A reload that fails,
     * finds no row or has not answered within {@code lookup-timeout} forgets the tenant, so the next request asks the
     * database as before: the old row serves at most that much longer than it did when a change forgot it at once. An
     * id this replica does not hold stays unloaded, and is no longer remembered as unknown (a new tenant). Cancelling
     * the returned stage changes none of this.
     */
    public CompletionStage<Void> changed(String tenantId) {
        // Numbered: an earlier change's reload can end after a later change's, or after a later change found the
        // tenant forgotten (at a deadline) and reloaded nothing, and what it read may predate that later change; it
        // is then dropped (ChangeMarks). A refresh of the cache's own that ends after a put is discarded by the cache,
        // since the entry changed under it.
        long change = changes.incrementAndGet();
        unknown.invalidate(tenantId);
        if (known.getIfPresent(tenantId) == null) {
            marks.asMap().merge(tenantId, new ChangeMarks(0, change), (old, absent) -> old.absentAt(change));
            return CompletableFuture.completedFuture(null);
        }
        CompletableFuture<Void> settled = refreshes.submit(() -> load(tenantId, true)).handle((tenant, failure) -> {
            marks.asMap().compute(tenantId, (id, old) -> {
                ChangeMarks now = old == null ? new ChangeMarks(0, 0) : old;
                if (change <= now.applied() || change <= now.absent()) {
                    return now; // a later change decided already: what this reload read may be older
                }
                if (failure != null || tenant == null) {
                    known.synchronous().invalidate(tenantId);
                } else {
                    known.put(tenantId, CompletableFuture.completedFuture(tenant));
                }
                return new ChangeMarks(change, now.absent());
            });
            return null;
        });
        return settled.copy().orTimeout(lookupTimeout.toMillis(), TimeUnit.MILLISECONDS).handle((v, late) -> {
            if (late != null) {
                LOG.warnf("tenant %s changed, and reloading it took over %d ms: forgotten here until PostgreSQL answers",
                        tenantId, lookupTimeout.toMillis());
                known.synchronous().invalidate(tenantId);
            }
            return (Void) null;
        }).copy();
    }

    /**
     * How long a due reload waits before it starts: a random part of an eighth of the TTL, so reloads of tenants
     * loaded together spread out, and each still starts by seven eighths of the TTL, before the cached value expires.
     */
    static long reloadDelayMillis(Duration ttl, DoubleSupplier random) {
        return (long) (ttl.toMillis() / 8 * random.getAsDouble());
    }

    /**
     * How long a request waits for a lookup: {@code lookup-timeout}, and with origin pull-through on also the origin's
     * turn and answer ({@code origin-pull.max-wait} + {@code origin-pull.timeout}), so a lookup the origin answers in
     * its allowed time is never cut short by the database's deadline.
     */
    static Duration requestDeadline(Duration lookupTimeout, boolean originPull, Duration originWait,
            Duration originTimeout) {
        return originPull ? lookupTimeout.plus(originWait).plus(originTimeout) : lookupTimeout;
    }

    /**
     * The stage's outcome, or a {@link LookupTimedOut} once {@code deadline} has passed without one. The query itself
     * goes on (its budget's turn is given back when it ends); only the request stops waiting for it.
     */
    static <T> CompletionStage<T> withDeadline(CompletionStage<T> stage, Duration deadline) {
        return stage.toCompletableFuture().copy().orTimeout(deadline.toMillis(), TimeUnit.MILLISECONDS)
                .exceptionallyCompose(failure -> CompletableFuture.failedFuture(
                        failure instanceof TimeoutException ? new LookupTimedOut(deadline) : failure));
    }

    /**
     * The stage's outcome in a plain {@link CompletableFuture} (no subclass), so callers see one future class; a
     * failure as its cause, unwrapped from the {@link CompletionException} a dependent stage adds, so the cache sees
     * a {@link LookupRefused} as the cancellation it is (and does not log it).
     */
    static <T> CompletableFuture<T> plain(CompletionStage<T> stage) {
        CompletableFuture<T> out = new CompletableFuture<>();
        stage.whenComplete((value, failure) -> {
            if (failure != null) {
                out.completeExceptionally(failure instanceof CompletionException && failure.getCause() != null
                        ? failure.getCause() : failure);
            } else {
                out.complete(value);
            }
        });
        return out;
    }

    /**
     * The pool's connections tenant lookups may hold at once (misses, refreshes, the change poll) leave at least two:
     * one for the group commit, one for the readiness probe's {@code SELECT 1}, so no flood of ids can starve either.
     */
    static ConfigCheck problems(TenantConfig config, int poolSize) {
        int share = config.missBudget().maxConcurrent() + config.maxConcurrentRefreshes() + 1;
        return new ConfigCheck()
                .range("buffer.tenants.miss-budget.max-concurrent", config.missBudget().maxConcurrent(), 1, 64)
                .range("buffer.tenants.miss-budget.max-waiting", config.missBudget().maxWaiting(), 0, 10_000)
                .range("buffer.tenants.miss-budget.per-second", config.missBudget().perSecond(), 0, 1_000_000)
                .range("buffer.tenants.max-concurrent-refreshes", config.maxConcurrentRefreshes(), 1, 64)
                .range("buffer.tenants.origin-pull.max-concurrent", config.originPull().maxConcurrent(), 1, 1024)
                .range("buffer.tenants.origin-pull.max-waiting", config.originPull().maxWaiting(), 0, 10_000)
                .require(share <= poolSize - 2, "buffer.tenants.miss-budget.max-concurrent ("
                        + config.missBudget().maxConcurrent() + ") + buffer.tenants.max-concurrent-refreshes ("
                        + config.maxConcurrentRefreshes() + ") + 1 (the change poll) must leave two of "
                        + "quarkus.datasource.reactive.max-size (" + poolSize + ") for the group commit and readiness");
    }

    /**
     * PostgreSQL first, then (when enabled) the origin. A miss for an unproven id spends the miss budget and, for the
     * origin, the bulkhead; a refresh or a known id spends neither (the refresh limiter and the number of tenants bound
     * those, and a tenant must not wait behind a flood of invented ids).
     */
    private CompletionStage<Tenant> load(String id, boolean proven) {
        CompletionStage<Tenant> fromDatabase = proven ? repository.find(id) : misses.submit(() -> repository.find(id));
        // The warm-up's made-up ids (RefusalRehearsal) cost the database lookup they rehearse, never the origin's.
        CompletionStage<Tenant> found = !originPull || rehearsal.owns(id) ? fromDatabase : fromDatabase.thenCompose(tenant -> {
            if (tenant != null) {
                return CompletableFuture.completedFuture(tenant);
            }
            // Failure policy: fail closed, and ask for a retry. An origin we could not ask (bulkhead full, timeout, a
            // refused connection, a 5xx) fails the lookup: ingress answers 503 with Retry-After, not 404, which some
            // providers take as "disable this endpoint"; it never yields a tenant without a secret.
            return proven ? originSource.fetch(id) : originQuestions.submit(() -> originSource.fetch(id));
        });
        return found.thenApply(tenant -> {
            if (tenant != null) {
                recentlyKnown.put(id, Boolean.TRUE);
            }
            return tenant;
        });
    }
}
