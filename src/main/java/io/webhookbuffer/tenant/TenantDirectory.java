package io.webhookbuffer.tenant;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import com.github.benmanes.caffeine.cache.AsyncCacheLoader;
import com.github.benmanes.caffeine.cache.AsyncLoadingCache;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

/**
 * Ingress's view of tenants: Caffeine in front of PostgreSQL (the system of record).
 *
 * <p>Known tenants are cached with refresh-ahead ({@code buffer.tenants.cache-refresh}) and a hard TTL
 * ({@code buffer.tenants.cache-ttl}). A change made through the control plane is pushed to every replica by
 * {@link TenantInvalidation}; the TTL is what bounds staleness when Redis is down. An id that is not in the
 * database is never cached as known: it goes to a separate, short, size-bounded negative cache. A miss goes to the
 * database at once; background refreshes take turns ({@code buffer.tenants.max-concurrent-refreshes}), so a wave of
 * them never crowds the group commit out of the shared pool.
 */
@ApplicationScoped
public class TenantDirectory {

    private static final Logger LOG = Logger.getLogger(TenantDirectory.class);

    private final AsyncLoadingCache<String, Tenant> known;
    private final Cache<String, Boolean> unknown;
    private final RefreshLimiter refreshes;

    public TenantDirectory(TenantConfig config, TenantRepository repository, OriginTenantSource originSource) {
        this.refreshes = new RefreshLimiter(config.maxConcurrentRefreshes());
        this.known = Caffeine.newBuilder()
                .maximumSize(config.cacheSize())
                .refreshAfterWrite(config.cacheRefresh())
                .expireAfterWrite(config.cacheTtl())
                .buildAsync(new AsyncCacheLoader<String, Tenant>() {
                    @Override
                    public CompletableFuture<Tenant> asyncLoad(String id, Executor executor) {
                        // A miss: a request waits for it, so it goes to the database at once.
                        return load(id, repository, originSource, config).toCompletableFuture();
                    }

                    @Override
                    public CompletableFuture<Tenant> asyncReload(String id, Tenant old, Executor executor) {
                        // A refresh: the cached value keeps serving meanwhile, so it can wait its turn.
                        return refreshes.submit(() -> load(id, repository, originSource, config));
                    }
                });
        this.unknown = Caffeine.newBuilder()
                .maximumSize(config.negativeCacheSize())
                .expireAfterWrite(config.negativeCacheTtl())
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

    /** Forgets what this replica knows of a tenant; the next read goes to the database. */
    public void invalidate(String tenantId) {
        known.synchronous().invalidate(tenantId);
        unknown.invalidate(tenantId);
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
