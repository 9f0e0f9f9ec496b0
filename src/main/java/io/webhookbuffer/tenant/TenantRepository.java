package io.webhookbuffer.tenant;

import java.time.OffsetDateTime;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.enterprise.context.ApplicationScoped;

import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.Tuple;
import io.webhookbuffer.verify.CustomSchemes;

/** Reads one tenant from PostgreSQL, the system of record, with the reactive client (no ORM on the ingest path). */
@ApplicationScoped
public class TenantRepository {

    /** One row by primary key; the secrets array comes back in stored order (current first). */
    static final String FIND_BY_ID = """
            SELECT tenant_id, active, provider, secrets, rate_limit, rate_window_seconds, max_body_bytes, origin_url,
                   delivery_rate, public_url, tolerance_seconds, custom_scheme::text AS custom_scheme
            FROM tenants WHERE tenant_id = $1""";

    /**
     * The tenants whose row changed after {@code $1} (the control plane sets updated_at on every change), and the
     * database's clock now, so the caller's next look needs no clock of its own. Served by tenants_updated_at.
     */
    static final String CHANGED_SINCE = """
            SELECT now() AS polled_at,
                   ARRAY(SELECT tenant_id FROM tenants WHERE updated_at > $1) AS changed""";

    /** What {@link #changedSince} found: ids changed after the given time, and the database's time of the look. */
    public record Changes(OffsetDateTime polledAt, List<String> tenantIds) {
    }

    private final Pool pool;
    /** {@link #FIND_BY_ID} queries sent, whatever their outcome. */
    private final AtomicLong lookups = new AtomicLong();

    public TenantRepository(Pool pool) {
        this.pool = pool;
    }

    /** Completes with the tenant, or with null when there is no such row. */
    public CompletionStage<Tenant> find(String tenantId) {
        lookups.incrementAndGet();
        return pool.preparedQuery(FIND_BY_ID).execute(Tuple.of(tenantId))
                .map(TenantRepository::firstOrNull)
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

    private static Tenant firstOrNull(RowSet<Row> rows) {
        var it = rows.iterator();
        if (!it.hasNext()) {
            return null;
        }
        Row row = it.next();
        return new Tenant(row.getString("tenant_id"), row.getBoolean("active"), row.getString("provider"),
                Arrays.asList(row.getArrayOfStrings("secrets")), row.getInteger("rate_limit"),
                row.getInteger("rate_window_seconds"), row.getInteger("max_body_bytes"), row.getString("origin_url"),
                row.getInteger("delivery_rate"), row.getString("public_url"), row.getInteger("tolerance_seconds"),
                CustomSchemes.parseStored(row.getString("custom_scheme")));
    }
}
