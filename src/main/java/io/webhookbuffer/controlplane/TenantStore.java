package io.webhookbuffer.controlplane;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import io.webhookbuffer.tenant.TenantConfig;
import io.webhookbuffer.verify.CustomSchemes;
import io.webhookbuffer.verify.Providers;

/** Provisioning writes to the tenants table, through Panache. */
@ApplicationScoped
public class TenantStore {

    private final TenantConfig defaults;

    public TenantStore(TenantConfig defaults) {
        this.defaults = defaults;
    }

    /**
     * Creates or updates the tenant in one transaction; idempotent (the same command twice leaves the same row).
     * Two first-time upserts of one id racing: the loser's insert hits the primary key, and the retry finds the row
     * and updates it.
     */
    public Uni<TenantView> upsert(String tenantId, TenantCommand command) {
        return Panache.withTransaction(() -> TenantEntity.<TenantEntity>findById(tenantId)
                .flatMap(existing -> existing == null ? create(tenantId, command) : update(existing, command)))
                .onFailure(TenantStore::isUniqueViolation).retry().atMost(1)
                .map(TenantView::of);
    }

    public Uni<TenantView> find(String tenantId) {
        return Panache.withSession(() -> TenantEntity.<TenantEntity>findById(tenantId))
                .map(entity -> entity == null ? null : TenantView.of(entity));
    }

    private Uni<TenantEntity> create(String tenantId, TenantCommand command) {
        if (command.secrets() == null) {
            return Uni.createFrom().failure(ProblemException.badRequest(
                    "A new tenant needs 'secrets': at least one signing secret (there is no fallback secret)."));
        }
        TenantEntity entity = new TenantEntity();
        entity.tenantId = tenantId;
        entity.active = command.active() == null || command.active();
        entity.provider = command.provider() == null ? Providers.GENERIC : command.provider();
        entity.secrets = command.secrets().toArray(String[]::new);
        entity.rateLimit = command.rateLimit() == null ? defaults.defaultRateLimit() : command.rateLimit();
        entity.rateWindowSeconds = command.rateWindowSeconds() == null
                ? defaults.defaultRateWindowSeconds()
                : command.rateWindowSeconds();
        entity.maxBodyBytes = command.maxBodyBytes();
        entity.originUrl = command.originUrl();
        entity.deliveryRate = command.deliveryRate();
        entity.publicUrl = command.publicUrl();
        entity.toleranceSeconds = command.toleranceSeconds();
        entity.customScheme = command.customScheme();
        entity.createdAt = now();
        entity.updatedAt = entity.createdAt;
        return checkScheme(entity).persist();
    }

    private static Uni<TenantEntity> update(TenantEntity entity, TenantCommand command) {
        if (command.active() != null) {
            entity.active = command.active();
        }
        if (command.provider() != null && !command.provider().equals(entity.provider)) {
            // A new provider starts from its own defaults: a custom scheme or tolerance the command does not
            // restate belonged to the old one.
            entity.provider = command.provider();
            entity.customScheme = null;
            entity.toleranceSeconds = null;
        }
        if (command.secrets() != null) {
            entity.secrets = command.secrets().toArray(String[]::new);
        }
        if (command.rateLimit() != null) {
            entity.rateLimit = command.rateLimit();
        }
        if (command.rateWindowSeconds() != null) {
            entity.rateWindowSeconds = command.rateWindowSeconds();
        }
        if (command.maxBodyBytesGiven()) {
            entity.maxBodyBytes = command.maxBodyBytes();
        }
        if (command.originUrlGiven()) {
            entity.originUrl = command.originUrl();
        }
        if (command.deliveryRateGiven()) {
            entity.deliveryRate = command.deliveryRate();
        }
        if (command.publicUrlGiven()) {
            entity.publicUrl = command.publicUrl();
        }
        if (command.toleranceGiven()) {
            entity.toleranceSeconds = command.toleranceSeconds();
        }
        if (command.customSchemeGiven()) {
            entity.customScheme = command.customScheme();
        }
        entity.updatedAt = now();
        return Uni.createFrom().item(checkScheme(entity));
    }

    /**
     * The provider, URL, tolerance, custom scheme and secrets together must make a usable verifier; else the command
     * is refused (400) and the transaction rolls back, so a tenant is never stored in a state that verifies nothing.
     */
    private static TenantEntity checkScheme(TenantEntity entity) {
        String problem = Providers.problem(entity.provider, entity.publicUrl, entity.toleranceSeconds,
                entity.customScheme == null ? null : CustomSchemes.parseStored(entity.customScheme),
                List.of(entity.secrets));
        if (problem != null) {
            throw ProblemException.badRequest(problem);
        }
        return entity;
    }

    private static OffsetDateTime now() {
        return OffsetDateTime.now(ZoneOffset.UTC);
    }

    private static boolean isUniqueViolation(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t.getMessage() != null && t.getMessage().contains("23505")) {
                return true;
            }
        }
        return false;
    }
}
