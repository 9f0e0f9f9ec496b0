package io.webhookbuffer.tenant;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.Tuple;
import io.webhookbuffer.secrets.SealedValueException;
import io.webhookbuffer.secrets.SecretCipher;
import io.webhookbuffer.secrets.TenantSecrets;
import io.webhookbuffer.verify.CustomSchemes;
import io.webhookbuffer.verify.SenderRetries;

/**
 * Reads one tenant from PostgreSQL, the system of record, with the reactive client (no ORM on the ingest path), and
 * opens its sealed secrets (a few microseconds of AES-GCM per load: the cache then holds them, so no request decrypts).
 */
@ApplicationScoped
public class TenantRepository {

    private static final Logger LOG = Logger.getLogger(TenantRepository.class);

    /**
     * One row by primary key; the sealed secrets array comes back in stored order (current first), with the end of the
     * tenant's open handshake window, if any (handshake_windows' primary key).
     */
    static final String FIND_BY_ID = """
            SELECT tenant_id, active, provider, secrets_encrypted, rate_limit, rate_window_seconds, max_body_bytes,
                   origin_url, delivery_rate, public_url, tolerance_seconds, custom_scheme::text AS custom_scheme,
                   origin_token_encrypted, origin_signing_secret_encrypted, max_queued_bytes, sender_retries,
                   trust_trace_context,
                   (SELECT w.closes_at FROM handshake_windows w WHERE w.tenant_id = tenants.tenant_id) AS handshake_closes_at
            FROM tenants WHERE tenant_id = $1""";

    /**
     * The tenants whose row changed after {@code $1} (the control plane sets updated_at on every change), and the
     * database's clock now, so the caller's next look needs no clock of its own. Served by tenants_updated_at.
     */
    static final String CHANGED_SINCE = """
            SELECT now() AS polled_at,
                   ARRAY(SELECT tenant_id FROM tenants WHERE updated_at > $1) AS changed""";

    /**
     * Every tenant id, active or not (tenants are deactivated, never deleted), and the database's clock now. Served by
     * the primary key's index alone; about 100 bytes of memory per tenant once read.
     */
    static final String ALL_IDS = """
            SELECT now() AS polled_at, ARRAY(SELECT tenant_id FROM tenants) AS changed""";

    /** What {@link #changedSince} found: ids changed after the given time, and the database's time of the look. */
    public record Changes(OffsetDateTime polledAt, List<String> tenantIds) {
    }

    private final Pool pool;
    private final SecretCipher cipher;
    /** {@link #FIND_BY_ID} queries sent, whatever their outcome. */
    private final AtomicLong lookups = new AtomicLong();
    /** Tenants whose secrets did not open lately: logged at ERROR once a minute each, not on every lookup. */
    private final Cache<String, Boolean> reported = Caffeine.newBuilder().maximumSize(1000)
            .expireAfterWrite(Duration.ofMinutes(1)).build();

    public TenantRepository(Pool pool, SecretCipher cipher) {
        this.pool = pool;
        this.cipher = cipher;
    }

    /**
     * Completes with the tenant, or with null when there is no such row. Failure policy: fail closed. A row whose
     * secrets do not open (a key missing from buffer.secrets.keys, a value moved from another tenant) fails the
     * lookup, so ingress answers 503 with Retry-After: never a tenant without its secrets, never a 404.
     */
    public CompletionStage<Tenant> find(String tenantId) {
        lookups.incrementAndGet();
        return pool.preparedQuery(FIND_BY_ID).execute(Tuple.of(tenantId))
                .map(this::firstOrNull)
                .toCompletionStage();
    }

    /** How many single-tenant queries this replica has sent to PostgreSQL since it started. */
    public long lookups() {
        return lookups.get();
    }

    /** The tenants whose rows changed after {@code since}, and the database's time of the look. */
    public CompletionStage<Changes> changedSince(OffsetDateTime since) {
        return pool.preparedQuery(CHANGED_SINCE).execute(Tuple.of(since))
                .map(rows -> {
                    Row row = rows.iterator().next();
                    return new Changes(row.getOffsetDateTime("polled_at"),
                            Arrays.asList(row.getArrayOfStrings("changed")));
                })
                .toCompletionStage();
    }

    /** Every tenant id there is (as {@link Changes}: all of them, and the database's time of the look). */
    public CompletionStage<Changes> allIds() {
        return pool.preparedQuery(ALL_IDS).execute()
                .map(rows -> {
                    Row row = rows.iterator().next();
                    return new Changes(row.getOffsetDateTime("polled_at"),
                            Arrays.asList(row.getArrayOfStrings("changed")));
                })
                .toCompletionStage();
    }

    private static Instant closesAt(Row row) {
        OffsetDateTime closes = row.getOffsetDateTime("handshake_closes_at");
        return closes == null ? null : closes.toInstant();
    }

    private Tenant firstOrNull(RowSet<Row> rows) {
        var it = rows.iterator();
        if (!it.hasNext()) {
            return null;
        }
        Row row = it.next();
        String id = row.getString("tenant_id");
        TenantSecrets secrets;
        try {
            secrets = cipher.openTenant(id, new TenantSecrets(Arrays.asList(row.getArrayOfStrings("secrets_encrypted")),
                    row.getString("origin_token_encrypted"), row.getString("origin_signing_secret_encrypted")));
        } catch (SealedValueException e) {
            if (reported.asMap().putIfAbsent(id, Boolean.TRUE) == null) {
                LOG.errorf("%s: its requests are answered 503 until buffer.secrets.keys can open it "
                        + "(docs/runbook.md, \"Secrets do not open\")", e.getMessage());
            }
            throw e;
        }
        return new Tenant(id, row.getBoolean("active"), row.getString("provider"), secrets.providerSecrets(),
                row.getInteger("rate_limit"), row.getInteger("rate_window_seconds"), row.getInteger("max_body_bytes"),
                row.getString("origin_url"), row.getInteger("delivery_rate"), row.getString("public_url"),
                row.getInteger("tolerance_seconds"), CustomSchemes.parseStored(row.getString("custom_scheme")),
                secrets.originCredentials(), row.getLong("max_queued_bytes"), closesAt(row),
                SenderRetries.of(row.getString("sender_retries")), row.getBoolean("trust_trace_context"));
    }
}
