package io.webhookbuffer.tenant;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.DoubleSupplier;

import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import io.quarkus.runtime.StartupEvent;
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
 * is dropped {@link #CACHE_TTL} (60 s) after it was loaded (the bound for a row changed without touching
 * {@code updated_at}), and reloaded in the background between three quarters and seven eighths of that while in use,
 * so a busy tenant never waits for its reload. Reloading every cached tenant at the change-poll's pace instead cost
 * 200 queries a second with 1,000 tenants, a quarter of the server's CPU per event (bench/results/performance-log.md).
 *
 * <p>Two details keep a reload from disturbing the hot path (bench/results/performance-log.md): each reload waits a random part
 * of an eighth of the TTL before it starts, so tenants first seen together (the first traffic after a start) do not
 * reload in one wave every TTL for as long as the process lives; and every future the cache holds is a plain
 * {@link CompletableFuture}, whichever client completed it, so the compiled ingest path meets one future class only,
 * before and after the first reload.
 *
 * <p>A tenant's secrets are stored sealed (AES-256-GCM, {@code secrets}); {@link TenantRepository} opens them as it
 * loads the row, so the cache holds them opened, in memory only, and a request never decrypts: the cost (a few
 * microseconds) is paid once per load or reload, not per event.
 *
 * <p>Which ids are tenants is known here, not asked ({@link #ids}): every replica reads all tenant ids once at start
 * (one query; tenants are few, about 100 bytes each) and adds each id it hears of through the same two paths that
 * carry every change (Redis at once, the change poll within {@code cache-refresh}). So an id that is no tenant is
 * answered unknown from memory, with no query and no queue, and a flood of invented ids costs PostgreSQL nothing: it
 * can take no turn from a tenant that exists (docs/architecture.md, "Fair shares"). A tenant provisioned on another
 * replica is unknown here until one of those paths brings its id: milliseconds through Redis, at most
 * {@code cache-refresh} (plus the poll's look-back) without it, as a cached tenant's change already was. Tenants are
 * deactivated, never deleted, so an id once known stays known (its row decides active or not). Until the first read
 * of all ids has succeeded (PostgreSQL down at start), an id not yet known is answered with {@link LookupRefused}
 * (ingress: 503 {@code lookup_busy} with {@code Retry-After}), never 404: nothing is known of it yet.
 *
 * <p>A tenant that exists but is not cached (first seen since the start, or expired while idle) is loaded at once, in
 * turn with the other tenants' loads ({@link #MAX_CONCURRENT_REFRESHES} at a time, in arrival order): identical
 * concurrent misses are coalesced by the cache (one load per id), so each tenant waits behind at most one load per
 * other tenant, never behind traffic it did not send. Background refreshes take turns of their own, so a wave of them
 * never crowds the group commit out of the shared pool. With origin pull-through, an id that is not a tenant in
 * PostgreSQL is asked of the origin within its bulkhead ({@code buffer.tenants.origin-pull.*}), so a slow origin
 * cannot hold the database's turns; an id the origin answered is known from then on and skips the bulkhead.
 */
@ApplicationScoped
public class TenantDirectory {

    private static final Logger LOG = Logger.getLogger(TenantDirectory.class);

    /**
     * Each look at changed rows reaches this far before the previous one. updated_at is stamped by the replica that
     * made the change, from its own clock, before its transaction commits: a change that commits just after a look,
     * or comes from a replica whose clock runs behind the database's by less than this, is still found.
     */
    /**
     * Background refreshes in flight at once, and as many loads of tenants not cached (a tenant's first request since
     * the start, or after it expired while idle); the others wait their turn, in order. Keeps a wave of them (tenants
     * first seen together come due together) from queueing in the database pool ahead of the group commit.
     */
    static final int MAX_CONCURRENT_REFRESHES = 2;
    /** Most tenants cached (and remembered by the per-tenant tallies that follow the cache, e.g. the 401 windows). */
    public static final long CACHE_SIZE = 100_000;
    /**
     * A cached tenant is dropped this long after it was loaded, and reloaded in the background while in use, starting
     * between three quarters and seven eighths of it. Changes reach the cache sooner by the Redis announcement and the
     * change poll ({@code buffer.tenants.cache-refresh}); this only bounds a row changed by hand without touching
     * {@code updated_at}, and costs a query per cached tenant per minute. Was {@code buffer.tenants.cache-ttl}.
     */
    static final Duration CACHE_TTL = Duration.ofSeconds(60);
    /**
     * Questions to the origin that may wait for a turn, per question in flight ({@code origin-pull.max-concurrent}):
     * with each wait bounded by {@link #ORIGIN_WAIT}, the queue only bounds the timers and memory that waiting takes,
     * and four turns' worth is what the defaults had (16 for 4). Was {@code buffer.tenants.origin-pull.max-waiting}.
     */
    static final int ORIGIN_WAITING_PER_TURN = 4;
    /**
     * How long a question may wait for its turn at the origin before it is answered 503 {@code lookup_busy} without
     * asking: the request waits this long at most on top of {@code lookup-timeout} and the origin's own
     * {@code timeout}, and a sender (GitHub gives 10 s) must get an answer in time. Was {@code
     * buffer.tenants.origin-pull.max-wait}.
     */
    static final Duration ORIGIN_WAIT = Duration.ofSeconds(1);
    static final Duration LOOK_BACK = Duration.ofSeconds(10);
    /** How long the start waits for the first read of all tenant ids before it goes on without them. */
    static final Duration IDS_AT_START = Duration.ofSeconds(10);

    private final AsyncLoadingCache<String, Tenant> known;
    /**
     * Every id that is a tenant in PostgreSQL (or that the origin answered), as far as this replica has heard: read
     * whole at start, then added to by every change announced or polled and by every load that found a tenant. Only
     * the database and the control plane's announcements add ids, so invented ids cannot get in.
     */
    private final Set<String> ids = ConcurrentHashMap.newKeySet();
    /** Whether {@link #ids} holds every tenant id the database had at some moment since the start. */
    private volatile boolean idsLoaded;
    private final RefreshLimiter refreshes;
    /** Loads of tenants that exist but are not cached, in turn: each id has at most one in flight (the cache's). */
    private final RefreshLimiter loads;
    private final LookupBudget originQuestions;
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
            @ConfigProperty(name = "quarkus.datasource.reactive.max-size", defaultValue = "20") int poolSize) {
        problems(config, poolSize).throwIfAny();
        this.repository = repository;
        this.originSource = originSource;
        this.originPull = config.originPull().enabled();
        this.lookupTimeout = requestDeadline(config.lookupTimeout(), config.originPull().enabled(),
                ORIGIN_WAIT, config.originPull().timeout());
        this.refreshes = new RefreshLimiter(MAX_CONCURRENT_REFRESHES);
        this.loads = new RefreshLimiter(MAX_CONCURRENT_REFRESHES);
        TenantConfig.OriginPull pull = config.originPull();
        this.originQuestions = LookupBudget.of("origin pull-through bulkhead", pull.maxConcurrent(),
                ORIGIN_WAITING_PER_TURN * pull.maxConcurrent(), ORIGIN_WAIT, 0);
        this.known = Caffeine.newBuilder()
                .maximumSize(CACHE_SIZE)
                .refreshAfterWrite(CACHE_TTL.multipliedBy(3).dividedBy(4))
                .scheduler(Scheduler.systemScheduler()) // expired tenants leave memory on time, idle or not
                .expireAfterWrite(CACHE_TTL)
                .buildAsync(new AsyncCacheLoader<String, Tenant>() {
                    @Override
                    public CompletableFuture<Tenant> asyncLoad(String id, Executor executor) {
                        // A miss: a request waits for it (at most lookup-timeout, in find), so it never takes the
                        // refreshes' turns. A tenant's takes its turn among the other tenants' loads; an id no
                        // tenant has (origin pull-through on) goes to the origin's bulkhead without one.
                        return plain(ids.contains(id) ? loads.submit(() -> load(id)) : load(id));
                    }

                    @Override
                    public CompletableFuture<Tenant> asyncReload(String id, Tenant old, Executor executor) {
                        // A refresh: the cached value keeps serving meanwhile, so it can wait its turn. It starts
                        // on the JDK's delay thread (it only submits a query), not a thread of its own (LookupBudget.of).
                        Executor later = CompletableFuture.delayedExecutor(
                                reloadDelayMillis(CACHE_TTL, ThreadLocalRandom.current()::nextDouble),
                                TimeUnit.MILLISECONDS, Runnable::run);
                        return CompletableFuture.supplyAsync(
                                () -> refreshes.submit(() -> load(id)), later)
                                .thenCompose(reload -> reload);
                    }
                });
        this.marks = Caffeine.newBuilder()
                .maximumSize(CACHE_SIZE)
                .expireAfterWrite(Duration.ofMinutes(5))
                .build();
    }

    /**
     * Reads every tenant id before the first request. Failure policy: fail
     * closed, retried. With PostgreSQL unreachable the start goes on, ids not yet known are answered 503 (never 404),
     * and the change poll tries again every {@code cache-refresh}.
     */
    void loadIds(@Observes @Priority(1) StartupEvent event) {
        try {
            readIds().toCompletableFuture().get(IDS_AT_START.toMillis(), TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            LOG.warnf("reading the tenant ids failed (%s): ids not yet known are answered 503 until it succeeds, "
                    + "retried every buffer.tenants.cache-refresh", e.getMessage());
        }
    }

    /** Adds every tenant id the database has, and marks them read. */
    private CompletionStage<Void> readIds() {
        return repository.allIds().thenAccept(all -> {
            ids.addAll(all.tenantIds());
            idsLoaded = true;
        });
    }

    /**
     * The tenant as this replica holds it now (PostgreSQL's or the origin's), or null when it is not loaded here: no
     * query, no load, no wait. For views that must cost nothing (the status page).
     */
    public Tenant cached(String tenantId) {
        CompletableFuture<Tenant> held = known.getIfPresent(tenantId);
        return held != null && held.isDone() && !held.isCompletedExceptionally() ? held.getNow(null) : null;
    }

    /** Completes with the tenant (active or not), or with null when the id is unknown. */
    public CompletionStage<Tenant> find(String tenantId) {
        if (!ids.contains(tenantId)) {
            if (!idsLoaded) {
                return CompletableFuture.failedFuture(new LookupRefused("tenant ids not read yet")); // retry: 503
            }
            if (!originPull) {
                return CompletableFuture.completedFuture(null); // no tenant: known from memory, no query
            }
        }
        // A hit is complete: no deadline. A load is shared by every request for the id and stays
        // in the cache until it ends; each request stops waiting for it at lookup-timeout.
        CompletableFuture<Tenant> cached = known.get(tenantId);
        return cached.isDone() ? cached : withDeadline(cached, lookupTimeout);
    }

    /**
     * Reloads the cached tenants whose rows changed since the last look (and the one before, see {@link #LOOK_BACK}).
     * A failed look is retried from the same point at the next interval.
     */
    @Scheduled(every = "${buffer.tenants.cache-refresh:5s}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = Scheduled.ApplicationNotRunning.class,
            identity = "tenant-changes")
    Uni<Void> followChanges() {
        return Uni.createFrom().completionStage(() -> idsLoaded ? CompletableFuture.completedFuture(null) : readIds())
                .chain(() -> Uni.createFrom().completionStage(() -> repository.changedSince(lastLook.minus(LOOK_BACK))))
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
     * any budget: with the pool busy, its sender waited up to the pool's 30 s for a connection, two or three times
     * per change per replica, once per look that saw the change). Failure policy: fail closed. A reload that fails,
     * finds no row or has not answered within {@code lookup-timeout} forgets the tenant, so the next request asks the
     * database as before: the old row serves at most that much longer than it did when a change forgot it at once. An
     * id this replica does not hold stays unloaded, and is known from now on (a new tenant: {@link #ids}). Cancelling
     * the returned stage changes none of this.
     */
    public CompletionStage<Void> changed(String tenantId) {
        // Numbered: an earlier change's reload can end after a later change's, or after a later change found the
        // tenant forgotten (at a deadline) and reloaded nothing, and what it read may predate that later change; it
        // is then dropped (ChangeMarks). A refresh of the cache's own that ends after a put is discarded by the cache,
        // since the entry changed under it.
        long change = changes.incrementAndGet();
        ids.add(tenantId);
        if (known.getIfPresent(tenantId) == null) {
            marks.asMap().merge(tenantId, new ChangeMarks(0, change), (old, absent) -> old.absentAt(change));
            return CompletableFuture.completedFuture(null);
        }
        CompletableFuture<Void> settled = refreshes.submit(() -> load(tenantId)).handle((tenant, failure) -> {
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
     * turn and answer ({@link #ORIGIN_WAIT} + {@code origin-pull.timeout}), so a lookup the origin answers in
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
     * The pool's connections tenant lookups may hold at once (loads of tenants not cached, refreshes, the change poll)
     * leave at least two: one for the group commit, one for the readiness probe's {@code SELECT 1}.
     */
    static ConfigCheck problems(TenantConfig config, int poolSize) {
        int share = 2 * MAX_CONCURRENT_REFRESHES + 1;
        return new ConfigCheck()
                .range("buffer.tenants.origin-pull.max-concurrent", config.originPull().maxConcurrent(), 1, 1024)
                .require(share <= poolSize - 2, "quarkus.datasource.reactive.max-size must be at least " + (share + 2)
                        + " (tenant loads and refreshes, " + MAX_CONCURRENT_REFRESHES + " each, the change poll, "
                        + "the group commit and readiness), was " + poolSize);
    }

    /**
     * PostgreSQL for an id known to be a tenant, then (when enabled) the origin: directly for an id known here, within
     * the bulkhead for any other (the only lookups an invented id can cause, and they never reach the database).
     */
    private CompletionStage<Tenant> load(String id) {
        boolean stored = ids.contains(id);
        CompletionStage<Tenant> fromDatabase = stored ? repository.find(id) : CompletableFuture.completedFuture(null);
        CompletionStage<Tenant> found = !originPull ? fromDatabase : fromDatabase.thenCompose(tenant -> {
            if (tenant != null) {
                return CompletableFuture.completedFuture(tenant);
            }
            // Failure policy: fail closed, and ask for a retry. An origin we could not ask (bulkhead full, timeout, a
            // refused connection, a 5xx) fails the lookup: ingress answers 503 with Retry-After, not 404, which some
            // providers take as "disable this endpoint"; it never yields a tenant without a secret.
            return stored ? originSource.fetch(id) : originQuestions.submit(() -> originSource.fetch(id));
        });
        return found.thenApply(tenant -> {
            if (tenant != null) {
                ids.add(id);
            }
            return tenant;
        });
    }
}
