package io.webhookbuffer.controlplane;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import io.webhookbuffer.secrets.SealedValueException;
import io.webhookbuffer.secrets.SecretCipher;
import io.webhookbuffer.secrets.TenantSecrets;

/**
 * Key rotation for secrets at rest: which keys the stored values need ({@link #status()}), and the pass that seals
 * every value again under the active key ({@link #reencrypt}), a batch of tenants per call in tenant-id order. A pass
 * is idempotent (a row already under the active key is not selected, so running it again changes nothing) and safe
 * beside commands and other replicas (each batch locks its rows; a row a command changed meanwhile is re-checked). A
 * row that does not open is left as it is and reported; the pass goes on past it. The values' clear form never
 * changes, so no cache is told: {@code updated_at} stays.
 */
@ApplicationScoped
public class SecretsRotation {

    /** The row holds a value that is not sealed under the active key ({@code $1}: the active key's prefix). */
    static final String NOT_UNDER_ACTIVE = """
            EXISTS (SELECT 1 FROM unnest(t.secrets_encrypted
                        || ARRAY[t.origin_token_encrypted, t.origin_signing_secret_encrypted]) v
                    WHERE v IS NOT NULL AND NOT starts_with(v, $1))""";

    /** The next tenants after {@code $2} with a value to seal again, locked until the batch commits. */
    static final String NEXT_BATCH = """
            SELECT t.tenant_id, t.secrets_encrypted, t.origin_token_encrypted, t.origin_signing_secret_encrypted
            FROM tenants t
            WHERE t.tenant_id > $2 AND %s
            ORDER BY t.tenant_id LIMIT $3
            FOR UPDATE""".formatted(NOT_UNDER_ACTIVE);

    static final String RESEAL = """
            UPDATE tenants SET secrets_encrypted = $2, origin_token_encrypted = $3, origin_signing_secret_encrypted = $4
            WHERE tenant_id = $1""";

    static final String REMAINING = "SELECT count(*) AS remaining FROM tenants t WHERE " + NOT_UNDER_ACTIVE;

    /** Values and tenants per key id named in the stored values. */
    static final String BY_KEY = """
            SELECT split_part(v, ':', 2) AS key_id, count(*) AS sealed_values, count(DISTINCT t.tenant_id) AS tenants
            FROM tenants t,
                 unnest(t.secrets_encrypted || ARRAY[t.origin_token_encrypted, t.origin_signing_secret_encrypted]) v
            WHERE v IS NOT NULL
            GROUP BY 1 ORDER BY 1""";

    /** One batch of a pass. {@code nextAfter}: where the next batch starts; null when this one reached the end. */
    public record Pass(String activeKey, int examined, int reencrypted, List<Unreadable> unreadable, String nextAfter,
            boolean more, long remaining) {
    }

    /** A tenant whose values did not open: its reason names the key, never a value. */
    public record Unreadable(String tenantId, String reason) {
    }

    /** Which keys the stored values need now. */
    public record Status(String activeKey, Set<String> keys, Map<String, KeyUse> byKey, long tenantsToReencrypt,
            List<String> unconfiguredKeysInUse, List<String> removableKeys) {
    }

    public record KeyUse(long tenants, long values) {
    }

    private record Resealed(List<Tuple> updates, List<Unreadable> unreadable, String last, int examined) {
    }

    private final Pool pool;
    private final SecretCipher cipher;

    public SecretsRotation(Pool pool, SecretCipher cipher) {
        this.pool = pool;
        this.cipher = cipher;
    }

    /** Seals again, under the active key, the values of at most {@code limit} tenants after {@code after}. */
    public Uni<Pass> reencrypt(String after, int limit) {
        String prefix = cipher.activePrefix();
        return pool.withTransaction(conn -> conn.preparedQuery(NEXT_BATCH).execute(Tuple.of(prefix, after, limit))
                // AES for a batch of rows is CPU work: off the event loop.
                .flatMap(rows -> Uni.createFrom().item(() -> reseal(rows))
                        .runSubscriptionOn(Infrastructure.getDefaultWorkerPool()))
                .call(resealed -> write(conn, resealed)))
                .flatMap(resealed -> remaining(prefix).map(remaining -> new Pass(cipher.activeKeyId(),
                        resealed.examined(), resealed.updates().size(), resealed.unreadable(),
                        resealed.examined() == limit ? resealed.last() : null, resealed.examined() == limit,
                        remaining)));
    }

    public Uni<Status> status() {
        String prefix = cipher.activePrefix();
        return pool.preparedQuery(BY_KEY).execute().flatMap(rows -> remaining(prefix).map(remaining -> {
            Map<String, KeyUse> byKey = new LinkedHashMap<>();
            rows.forEach(r -> byKey.put(r.getString("key_id"), new KeyUse(r.getLong("tenants"), r.getLong("sealed_values"))));
            Set<String> keys = cipher.keyring().ids();
            List<String> unconfigured = byKey.keySet().stream().filter(id -> !keys.contains(id)).toList();
            List<String> removable = keys.stream()
                    .filter(id -> !id.equals(cipher.activeKeyId()) && !byKey.containsKey(id)).toList();
            return new Status(cipher.activeKeyId(), keys, byKey, remaining, unconfigured, removable);
        }));
    }

    private Uni<Long> remaining(String prefix) {
        return pool.preparedQuery(REMAINING).execute(Tuple.of(prefix))
                .map(rows -> rows.iterator().next().getLong("remaining"));
    }

    private static Uni<Void> write(SqlConnection conn, Resealed resealed) {
        return resealed.updates().isEmpty()
                ? Uni.createFrom().voidItem()
                : conn.preparedQuery(RESEAL).executeBatch(resealed.updates()).replaceWithVoid();
    }

    private Resealed reseal(RowSet<Row> rows) {
        List<Tuple> updates = new ArrayList<>();
        List<Unreadable> unreadable = new ArrayList<>();
        String last = null;
        int examined = 0;
        for (Row row : rows) {
            String id = row.getString("tenant_id");
            last = id;
            examined++;
            try {
                TenantSecrets sealed = cipher.sealTenant(id, cipher.openTenant(id, new TenantSecrets(
                        Arrays.asList(row.getArrayOfStrings("secrets_encrypted")), row.getString("origin_token_encrypted"),
                        row.getString("origin_signing_secret_encrypted"))));
                updates.add(Tuple.of(id, sealed.providerSecrets().toArray(String[]::new), sealed.originToken(),
                        sealed.originSigningSecret()));
            } catch (SealedValueException e) {
                unreadable.add(new Unreadable(id, e.getMessage()));
            }
        }
        return new Resealed(updates, unreadable, last, examined);
    }
}
