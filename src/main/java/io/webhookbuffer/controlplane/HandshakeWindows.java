package io.webhookbuffer.controlplane;

import java.time.OffsetDateTime;
import java.util.List;
import java.util.concurrent.CompletionStage;

import jakarta.enterprise.context.ApplicationScoped;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import io.webhookbuffer.common.Hmac;
import io.webhookbuffer.ingress.SecretHandshakeStore;
import io.webhookbuffer.tenant.TenantInvalidation;

/**
 * The windows in which a provider's secret handshake (Asana's {@code X-Hook-Secret}) may set a tenant's secret
 * ({@code handshake_windows}, V14): opened by the signed command ({@link HandshakeWindowResource}), used at most once
 * by the ingest path ({@link SecretHandshakeStore}). Both write their lifecycle event in the same statement, so the
 * window and its use are in the tenant's lifecycle record exactly when they happened. Explicit SQL on the reactive
 * client: the ingest path calls it from the event loop, outside any request scope.
 */
@ApplicationScoped
public class HandshakeWindows implements SecretHandshakeStore {

    static final String OPENED_TYPE = "handshake_window_opened";
    static final String USED_TYPE = "handshake_secret_stored";

    /**
     * Opens (or replaces) the window when the tenant exists and its provider is {@code $2}; writes the opening's
     * lifecycle event and stamps the tenant's {@code updated_at}, so every replica's change poll reloads the tenant
     * with its window even when the Redis announcement is missed. Answers the tenant's provider (null: no tenant) and
     * the window (null: none opened).
     */
    static final String OPEN = """
            WITH t AS (
                SELECT tenant_id, provider FROM tenants WHERE tenant_id = $1
            ), opened AS (
                INSERT INTO handshake_windows (tenant_id, provider, opened_at, closes_at)
                SELECT tenant_id, provider, now(), now() + $3 * interval '1 second' FROM t WHERE provider = $2
                ON CONFLICT (tenant_id) DO UPDATE SET provider = excluded.provider, window_id = excluded.window_id,
                    opened_at = excluded.opened_at, closes_at = excluded.closes_at
                RETURNING window_id, opened_at, closes_at
            ), touched AS (
                UPDATE tenants SET updated_at = now() WHERE tenant_id = $1 AND EXISTS (SELECT 1 FROM opened)
            ), logged AS (
                INSERT INTO lifecycle_events (dedupe_key, type, tenant_id, occurred_at, data)
                SELECT '%1$s:' || $1 || ':' || window_id, '%1$s', $1, opened_at,
                       jsonb_build_object('provider', $2::text, 'closesAt', closes_at)
                FROM opened
                ON CONFLICT (dedupe_key) DO NOTHING
            )
            SELECT (SELECT provider FROM t) AS provider, o.opened_at, o.closes_at
            FROM (SELECT 1) one LEFT JOIN opened o ON true""".formatted(OPENED_TYPE);

    /**
     * Uses an open window: deletes it (so a second handshake finds none: a row lock makes a concurrent one wait, then
     * find it gone), stores the sealed secret as the tenant's only provider secret (if its provider is still {@code $2})
     * and writes the use's lifecycle event with the secret's fingerprint. One statement: all or nothing.
     */
    static final String USE = """
            WITH used AS (
                DELETE FROM handshake_windows WHERE tenant_id = $1 AND provider = $2 AND closes_at > now()
                RETURNING window_id
            ), stored AS (
                UPDATE tenants t SET secrets_encrypted = $3, updated_at = now()
                FROM used WHERE t.tenant_id = $1 AND t.provider = $2
                RETURNING used.window_id
            ), logged AS (
                INSERT INTO lifecycle_events (dedupe_key, type, tenant_id, occurred_at, data)
                SELECT '%1$s:' || $1 || ':' || window_id, '%1$s', $1, now(),
                       jsonb_build_object('provider', $2::text, 'secretFingerprint', $4::text)
                FROM stored
                ON CONFLICT (dedupe_key) DO NOTHING
            )
            SELECT count(*) AS stored FROM stored""".formatted(USED_TYPE);

    /** The window a command opened; null fields when it opened none. */
    record Opened(String provider, OffsetDateTime openedAt, OffsetDateTime closesAt) {
    }

    private final Pool pool;
    private final TenantStore tenants;
    private final TenantInvalidation invalidation;

    public HandshakeWindows(Pool pool, TenantStore tenants, TenantInvalidation invalidation) {
        this.pool = pool;
        this.tenants = tenants;
        this.invalidation = invalidation;
    }

    /**
     * Opens the tenant's window for {@code seconds}; the tenant's provider, or null when there is no tenant. Answers
     * once this replica serves the tenant with its window, and every other is told (ingress refuses a handshake outside
     * a window from the cached tenant, without a query).
     */
    Uni<Opened> open(String tenantId, String provider, int seconds) {
        return pool.preparedQuery(OPEN).execute(Tuple.of(tenantId, provider, seconds)).map(rows -> {
            Row row = rows.iterator().next();
            return new Opened(row.getString("provider"), row.getOffsetDateTime("opened_at"),
                    row.getOffsetDateTime("closes_at"));
        }).call(opened -> opened.openedAt() != null ? invalidation.changed(tenantId) : Uni.createFrom().voidItem());
    }

    @Override
    public CompletionStage<Boolean> storeIfWindowOpen(String tenantId, String provider, String secret) {
        String[] sealed = tenants.sealProviderSecrets(tenantId, List.of(secret));
        return pool.preparedQuery(USE).execute(Tuple.of(tenantId, provider, sealed, Hmac.fingerprint(secret)))
                .map(rows -> rows.iterator().next().getLong("stored") > 0)
                .call(stored -> stored ? invalidation.changed(tenantId) : Uni.createFrom().voidItem())
                .subscribeAsCompletionStage();
    }
}
