package io.webhookbuffer.tenant;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.DoubleSupplier;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;

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
 * changed since its last look (one indexed query, however many tenants are cached) and forgets those. A cached tenant
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
 * <p>An id that is not in the database is never cached as known: it goes to a separate, short, size-bounded
 * negative cache. A miss goes to the database at once; background refreshes take turns
 * ({@code buffer.tenants.max-concurrent-refreshes}), so a wave of them never crowds the group commit out of the
 * shared pool.
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
    private final RefreshLimiter refreshes;
    private final TenantRepository repository;
    /** The database's time of the last look at changed rows (the first look starts from when this cache began). */
    private volatile OffsetDateTime lastLook = OffsetDateTime.now(ZoneOffset.UTC);

    public TenantDirectory(TenantConfig config, TenantRepository repository, OriginTenantSource originSource) {
        this.repository = repository;
        this.refreshes = new RefreshLimiter(config.maxConcurrentRefreshes());
        this.known = Caffeine.newBuilder()
                .maximumSize(config.cacheSize())
                .refreshAfterWrite(config.cacheTtl().multipliedBy(3).dividedBy(4))
                .scheduler(Scheduler.systemScheduler()) // expired tenants leave memory on time, idle or not
                .expireAfterWrite(config.cacheTtl())
                .buildAsync(new AsyncCacheLoader<String, Tenant>() {
                    @Override
                    public CompletableFuture<Tenant> asyncLoad(String id, Executor executor) {
                        // A miss: a request waits for it, so it goes to the database at once.
                        return plain(load(id, repository, originSource, config));
                    }

                    @Override
                    public CompletableFuture<Tenant> asyncReload(String id, Tenant old, Executor executor) {
                        // A refresh: the cached value keeps serving meanwhile, so it can wait its turn.
                        Executor later = CompletableFuture.delayedExecutor(
                                reloadDelayMillis(config.cacheTtl(), ThreadLocalRandom.current()::nextDouble),
                                TimeUnit.MILLISECONDS);
                        return CompletableFuture.supplyAsync(
                                () -> refreshes.submit(() -> load(id, repository, originSource, config)), later)
                                .thenCompose(reload -> reload);
                    }
                });
        this.unknown = Caffeine.newBuilder()
                .maximumSize(config.negativeCacheSize())
                .expireAfterWrite(config.negativeCacheTtl())
                .scheduler(Scheduler.systemScheduler())
                .build();
    }

    /** Completes with the tenant (active or not), or with null when the id is unknown. */
    public CompletionStage<Tenant> find(String tenantId) {
        if (unknown.getIfPresent(tenantId) != null) {
            return CompletableFuture.completedFuture(null);
        }
        return known.get(tenantId).thenApply(tenant -> {
            if (tenant == null) {
                unknown.put(tenantId, Boolean.TRUE);
            }
            return tenant;
        });
    }

    /**
     * Forgets the tenants whose rows changed since the last look (and the one before, see {@link #LOOK_BACK}). A
     * failed look is retried from the same point at the next interval.
     */
    @Scheduled(every = "${buffer.tenants.cache-refresh:5s}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            identity = "tenant-changes")
    Uni<Void> followChanges() {
        return Uni.createFrom().completionStage(() -> repository.changedSince(lastLook.minus(LOOK_BACK)))
                .invoke(changes -> {
                    changes.tenantIds().forEach(this::invalidate);
                    lastLook = changes.polledAt();
                })
                .onFailure().invoke(failure -> LOG.warnf("looking for changed tenants failed, retrying next interval: %s",
                        failure.getMessage()))
                .onFailure().recoverWithNull()
                .replaceWithVoid();
    }

    /** Forgets what this replica knows of a tenant; the next read goes to the database. */
    public void invalidate(String tenantId) {
        known.synchronous().invalidate(tenantId);
        unknown.invalidate(tenantId);
    }

    /**
     * How long a due reload waits before it starts: a random part of an eighth of the TTL, so reloads of tenants
     * loaded together spread out, and each still starts by seven eighths of the TTL, before the cached value expires.
     */
    static long reloadDelayMillis(Duration ttl, DoubleSupplier random) {
        return (long) (ttl.toMillis() / 8 * random.getAsDouble());
    }

    /** The stage's outcome in a plain {@link CompletableFuture} (no subclass), so callers see one future class. */
    static <T> CompletableFuture<T> plain(CompletionStage<T> stage) {
        CompletableFuture<T> out = new CompletableFuture<>();
        stage.whenComplete((value, failure) -> {
            if (failure != null) {
                out.completeExceptionally(failure);
            } else {
                out.complete(value);
            }
        });
        return out;
    }

    private static CompletionStage<Tenant> load(String id, TenantRepository repository, OriginTenantSource originSource,
            TenantConfig config) {
        CompletionStage<Tenant> fromDatabase = repository.find(id);
        if (!config.originPull().enabled()) {
            return fromDatabase;
        }
        return fromDatabase.thenCompose(tenant -> tenant != null
                ? CompletableFuture.completedFuture(tenant)
                : originSource.fetch(id).exceptionally(failure -> {
                    // Failure policy: fail closed. An origin we cannot ask yields "unknown tenant" (404), which
                    // providers retry; it never yields a tenant without a secret.
                    LOG.warnf("origin pull-through for tenant %s failed: %s", id, failure.getMessage());
                    return null;
                }));
    }
}
