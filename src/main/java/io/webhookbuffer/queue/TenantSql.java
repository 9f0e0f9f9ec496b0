package io.webhookbuffer.queue;

/**
 * SQL fragments that several statements share, in one place so they cannot drift apart: the paused check, a tenant's
 * queue depth and the scan of tenants with queued rows. Each returns plain SQL text to splice into a statement
 * (surrounded by white space by the caller); nothing here is a database function, so the planner sees the same
 * statement as if it were written out in place.
 */
public final class TenantSql {

    private TenantSql() {
    }

    /**
     * True when the tenant whose id is {@code tenantId} (a parameter such as {@code $1} or a column such as
     * {@code c.tenant_id}) is paused (control plane {@code POST .../pause}); false for a tenant with no row. One probe
     * of the tenants primary key. The subquery's own alias is {@code p}: a caller must not use {@code p} for the
     * column it passes.
     */
    public static String paused(String tenantId) {
        return "EXISTS (SELECT 1 FROM tenants p WHERE p.tenant_id = " + tenantId + " AND p.paused)";
    }

    /** The negation of {@link #paused}: the tenant is not paused (or has no row). */
    public static String notPaused(String tenantId) {
        return "NOT " + paused(tenantId);
    }

    /**
     * The number of rows queued for the tenant whose id is {@code tenantId} (a parameter or a column, as for
     * {@link #paused}), from the queue_depth counters (migration V12): a few primary-key rows, however many events are
     * queued. Exact in the statement's snapshot, because the counters change in the same statements as the rows. The
     * subquery's own alias is {@code qd}.
     */
    public static String depth(String tenantId) {
        return "(SELECT coalesce(sum(qd.events), 0)::bigint FROM queue_depth qd WHERE qd.tenant_id = " + tenantId + ")";
    }

    /**
     * {@code WITH RECURSIVE t(tenant_id)}: every tenant with queued rows, in id order and then one NULL row, by a loose
     * index scan over the (tenant_id, id) primary key: one probe per tenant, however many rows each has queued. A
     * statement goes on with its own CTEs ({@code , name AS (...)}) or its SELECT, and filters
     * {@code t.tenant_id IS NOT NULL}.
     */
    public static String queuedTenants() {
        return queuedTenantsFrom("");
    }

    /** {@link #queuedTenants()}, only the tenants whose id sorts after {@code tenantId} (a parameter such as $2). */
    public static String queuedTenantsAfter(String tenantId) {
        return queuedTenantsFrom(" WHERE tenant_id > " + tenantId);
    }

    private static String queuedTenantsFrom(String where) {
        return """
                WITH RECURSIVE t AS (
                    (SELECT tenant_id FROM event_queue""" + where + """
                 ORDER BY tenant_id LIMIT 1)
                    UNION ALL
                    SELECT (SELECT q.tenant_id FROM event_queue q WHERE q.tenant_id > t.tenant_id
                            ORDER BY q.tenant_id LIMIT 1)
                    FROM t WHERE t.tenant_id IS NOT NULL
                )""";
    }
}
