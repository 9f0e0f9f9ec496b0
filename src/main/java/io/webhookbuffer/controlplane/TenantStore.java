package io.webhookbuffer.controlplane;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import io.webhookbuffer.common.Hmac;
import io.webhookbuffer.secrets.SealedValueException;
import io.webhookbuffer.secrets.SecretCipher;
import io.webhookbuffer.secrets.TenantSecrets;
import io.webhookbuffer.tenant.Tenant;
import io.webhookbuffer.tenant.TenantConfig;
import io.webhookbuffer.verify.CustomSchemes;
import io.webhookbuffer.verify.Providers;

/**
 * Provisioning writes to the tenants table, through Panache. The secrets are opened as a row is loaded and sealed
 * again (under the active key, fresh nonces) whenever a command changes the tenant; the table never holds one in clear.
 * A command writes the whole row back, so it reads the row locked ({@link #locked}): commands on one tenant take turns.
 */
@ApplicationScoped
public class TenantStore {

    private final TenantConfig defaults;
    private final SecretCipher cipher;

    public TenantStore(TenantConfig defaults, SecretCipher cipher) {
        this.defaults = defaults;
        this.cipher = cipher;
    }

    /**
     * Creates or updates the tenant in one transaction; idempotent (the same command twice leaves the same row, and
     * the second answers with replay). Two first-time upserts of one id racing: the loser's insert hits the primary
     * key, and the retry finds the row and updates it.
     */
    public Uni<CommandResult> upsert(String tenantId, TenantCommand command) {
        return Panache.withTransaction(() -> locked(tenantId)
                .flatMap(existing -> existing == null
                        ? create(tenantId, command).map(created -> new CommandResult(TenantView.of(created), false))
                        : Uni.createFrom().item(change(opened(existing, command), entity -> update(entity, command)))))
                .onFailure(TenantStore::isUniqueViolation).retry().atMost(1);
    }

    public Uni<TenantView> find(String tenantId) {
        return Panache.withSession(() -> TenantEntity.<TenantEntity>findById(tenantId))
                .map(entity -> entity == null ? null : TenantView.of(opened(entity, null)));
    }

    /**
     * Pauses or resumes delivery; null when there is no such tenant. A resume makes the tenant's queued events
     * deliverable from now: the pause does not count against buffer.delivery.max-age.
     */
    public Uni<CommandResult> setPaused(String tenantId, boolean paused) {
        return changeExisting(tenantId, entity -> {
            if (entity.paused && !paused) {
                entity.deliverableSince = now();
            }
            entity.paused = paused;
        });
    }

    /**
     * Makes {@code secret} the tenant's current signing secret (first), keeping the others so senders still signing
     * with an older one are accepted until it is retired. Already current: replay.
     */
    public Uni<CommandResult> addSecret(String tenantId, String secret) {
        return changeExisting(tenantId, entity -> {
            List<String> secrets = new ArrayList<>(List.of(entity.secrets));
            secrets.remove(secret);
            secrets.add(0, secret);
            if (secrets.size() > Tenant.MAX_ACTIVE_SECRETS) {
                throw ProblemException.conflict("Tenant '" + tenantId + "' already has " + entity.secrets.length
                        + " secrets (at most " + Tenant.MAX_ACTIVE_SECRETS + " are active); retire one first.");
            }
            entity.secrets = secrets.toArray(String[]::new);
        });
    }

    /** Stops accepting the secret with this fingerprint; already gone: replay. The last secret cannot be retired. */
    public Uni<CommandResult> retireSecret(String tenantId, String fingerprint) {
        return changeExisting(tenantId, entity -> {
            String[] kept = Arrays.stream(entity.secrets)
                    .filter(s -> !Hmac.fingerprint(s).equals(fingerprint))
                    .toArray(String[]::new);
            if (kept.length == 0) {
                throw ProblemException.conflict("That is tenant '" + tenantId + "''s only secret; add its successor "
                        + "before retiring it.");
            }
            entity.secrets = kept;
        });
    }

    private Uni<CommandResult> changeExisting(String tenantId, Consumer<TenantEntity> mutation) {
        return Panache.withTransaction(() -> locked(tenantId)
                .map(entity -> entity == null ? null : change(opened(entity, null), mutation)));
    }

    /**
     * The tenant's row, locked ({@code SELECT ... FOR UPDATE}) until the command's transaction ends. A command writes
     * the whole row back, so it must not work on a row another writer changes meanwhile: commands on one tenant, the
     * secret handshake's {@code UPDATE} and the re-encryption pass's batch take their turns at the row, each reading
     * what the one before committed. Nothing else waits: ingress and the drainers read without locking. A lock rather
     * than a version column: the other writers are plain SQL, which a version would have to reach too, and a version
     * needs a retry loop and an answer for when it runs out; a lock makes a command wait milliseconds, never fail for the race.
     */
    private static Uni<TenantEntity> locked(String tenantId) {
        return TenantEntity.<TenantEntity>findById(tenantId, LockModeType.PESSIMISTIC_WRITE);
    }

    /**
     * Applies the change; touches updatedAt only when the tenant's state differs, and says replay when it does not.
     * A change seals every secret again, under the active key.
     */
    private CommandResult change(TenantEntity entity, Consumer<TenantEntity> mutation) {
        TenantView before = TenantView.of(entity);
        mutation.accept(entity);
        checkScheme(entity);
        checkCredentials(entity);
        TenantView after = TenantView.of(entity);
        if (before.equals(after)) {
            return new CommandResult(after, true);
        }
        seal(entity);
        entity.updatedAt = now();
        return new CommandResult(TenantView.of(entity), false);
    }

    /**
     * Opens the row's sealed values into the entity's clear fields. A value that does not open (its key is no longer
     * in buffer.secrets.keys, or it was copied from another row) refuses the command with 409, except a PUT that
     * restates every sealed value the row holds: that replaces them, which is how a tenant sealed under a lost key is
     * recovered.
     */
    private TenantEntity opened(TenantEntity entity, TenantCommand replacing) {
        try {
            TenantSecrets clear = cipher.openTenant(entity.tenantId, new TenantSecrets(List.of(entity.secretsEncrypted),
                    entity.originTokenEncrypted, entity.originSigningSecretEncrypted));
            entity.secrets = clear.providerSecrets().toArray(String[]::new);
            entity.originToken = clear.originToken();
            entity.originSigningSecret = clear.originSigningSecret();
        } catch (SealedValueException e) {
            if (replacing == null || !replacesEverySealedValue(entity, replacing)) {
                throw ProblemException.unreadableSecrets(e.getMessage() + ". Put that key back in buffer.secrets.keys, "
                        + "or replace the values with a PUT that restates 'secrets'"
                        + (entity.originTokenEncrypted != null || entity.originSigningSecretEncrypted != null
                                ? ", 'originToken' and 'originSigningSecret'" : "") + ".");
            }
            entity.secrets = new String[0];
            entity.originToken = null;
            entity.originSigningSecret = null;
        }
        return entity;
    }

    private static boolean replacesEverySealedValue(TenantEntity entity, TenantCommand command) {
        return command.secrets() != null
                && (entity.originTokenEncrypted == null || command.originTokenGiven())
                && (entity.originSigningSecretEncrypted == null || command.originSigningSecretGiven());
    }

    private void seal(TenantEntity entity) {
        TenantSecrets sealed = cipher.sealTenant(entity.tenantId, new TenantSecrets(List.of(entity.secrets),
                entity.originToken, entity.originSigningSecret));
        entity.secretsEncrypted = sealed.providerSecrets().toArray(String[]::new);
        entity.originTokenEncrypted = sealed.originToken();
        entity.originSigningSecretEncrypted = sealed.originSigningSecret();
    }

    /**
     * Provider secrets sealed for the tenant as every command seals them (the active key, fresh nonces), for a writer
     * outside the tenant commands: the secret handshake ({@link HandshakeWindows}).
     */
    String[] sealProviderSecrets(String tenantId, List<String> secrets) {
        return cipher.sealAll(secrets, tenantId, SecretCipher.Field.PROVIDER_SECRET).toArray(String[]::new);
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
        entity.maxQueuedBytes = command.maxQueuedBytes();
        entity.senderRetries = command.senderRetries();
        entity.trustTraceContext = Boolean.TRUE.equals(command.trustTraceContext());
        entity.originUrl = command.originUrl();
        entity.originToken = command.originToken();
        entity.originSigningSecret = command.originSigningSecret();
        entity.deliveryRate = command.deliveryRate();
        entity.publicUrl = command.publicUrl();
        entity.toleranceSeconds = command.toleranceSeconds();
        entity.customScheme = command.customScheme();
        entity.billingAnchor = command.billingAnchor();
        entity.billingCadence = command.billingCadence() == null ? "monthly" : command.billingCadence();
        entity.createdAt = now();
        entity.updatedAt = entity.createdAt;
        checkScheme(entity);
        checkCredentials(entity);
        seal(entity);
        return entity.persist();
    }

    private static void update(TenantEntity entity, TenantCommand command) {
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
        updateLimits(entity, command);
        updateOrigin(entity, command);
        if (command.publicUrlGiven()) {
            entity.publicUrl = command.publicUrl();
        }
        if (command.toleranceGiven()) {
            entity.toleranceSeconds = command.toleranceSeconds();
        }
        if (command.customSchemeGiven()) {
            entity.customScheme = command.customScheme();
        }
        updateBilling(entity, command);
    }

    /** What a tenant may send and have queued, and how fast it is delivered. */
    private static void updateLimits(TenantEntity entity, TenantCommand command) {
        if (command.rateLimit() != null) {
            entity.rateLimit = command.rateLimit();
        }
        if (command.rateWindowSeconds() != null) {
            entity.rateWindowSeconds = command.rateWindowSeconds();
        }
        if (command.maxBodyBytesGiven()) {
            entity.maxBodyBytes = command.maxBodyBytes();
        }
        if (command.maxQueuedBytesGiven()) {
            entity.maxQueuedBytes = command.maxQueuedBytes();
        }
        if (command.deliveryRateGiven()) {
            entity.deliveryRate = command.deliveryRate();
        }
        if (command.senderRetriesGiven()) {
            entity.senderRetries = command.senderRetries();
        }
        if (command.trustTraceContext() != null) {
            entity.trustTraceContext = command.trustTraceContext();
        }
    }

    private static void updateBilling(TenantEntity entity, TenantCommand command) {
        if (command.billingAnchorGiven() && !sameInstant(entity.billingAnchor, command.billingAnchor())) {
            entity.billingAnchor = command.billingAnchor();
        }
        if (command.billingCadence() != null) {
            entity.billingCadence = command.billingCadence();
        }
    }

    /**
     * The origin and its credentials. Credentials belong to the origin they were set for: a command that moves the
     * tenant to another origin drops those it does not restate, so a changed URL never receives the old token.
     */
    private static void updateOrigin(TenantEntity entity, TenantCommand command) {
        if (command.originUrlGiven() && !Objects.equals(command.originUrl(), entity.originUrl)) {
            entity.originUrl = command.originUrl();
            entity.originToken = null;
            entity.originSigningSecret = null;
        }
        if (command.originTokenGiven()) {
            entity.originToken = command.originToken();
        }
        if (command.originSigningSecretGiven()) {
            entity.originSigningSecret = command.originSigningSecret();
        }
    }

    /** The tenant's own credentials go to its own origin only: without an originUrl there is nowhere to send them. */
    private static void checkCredentials(TenantEntity entity) {
        if (entity.originUrl == null && (entity.originToken != null || entity.originSigningSecret != null)) {
            throw ProblemException.badRequest("'originToken' and 'originSigningSecret' are for the tenant's own "
                    + "origin: set 'originUrl' with them (the global origin gets buffer.origin.token and "
                    + "buffer.delivery.signing-secret).");
        }
    }

    private static boolean sameInstant(OffsetDateTime a, OffsetDateTime b) {
        return a == null ? b == null : b != null && a.isEqual(b);
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
