package io.webhookbuffer.usage;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;

/** The usage_buckets table: additive flushes and period sums. */
@ApplicationScoped
public class UsageStore {

    /**
     * Adds one flush's counts to the tenants' current hour, all tenants in one statement. Additive (x = x +
     * excluded.x), so flushes from several replicas, or several flushes within the hour, add up.
     */
    static final String FLUSH = """
            INSERT INTO usage_buckets AS b (tenant_id, bucket_start, received, accepted, deduplicated, rate_limited,
                                            rejected_signature, delivered, dead_lettered, bytes_accepted)
            SELECT u.tenant_id, date_trunc('hour', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC',
                   u.received, u.accepted, u.deduplicated, u.rate_limited,
                   u.rejected_signature, u.delivered, u.dead_lettered, u.bytes_accepted
            FROM unnest($1::text[], $2::bigint[], $3::bigint[], $4::bigint[], $5::bigint[], $6::bigint[],
                        $7::bigint[], $8::bigint[], $9::bigint[])
                AS u(tenant_id, received, accepted, deduplicated, rate_limited, rejected_signature, delivered,
                     dead_lettered, bytes_accepted)
            ON CONFLICT (tenant_id, bucket_start) DO UPDATE SET
                received = b.received + excluded.received,
                accepted = b.accepted + excluded.accepted,
                deduplicated = b.deduplicated + excluded.deduplicated,
                rate_limited = b.rate_limited + excluded.rate_limited,
                rejected_signature = b.rejected_signature + excluded.rejected_signature,
                delivered = b.delivered + excluded.delivered,
                dead_lettered = b.dead_lettered + excluded.dead_lettered,
                bytes_accepted = b.bytes_accepted + excluded.bytes_accepted""";

    /** Tenants with counted activity since {@code $1}, with their billing settings. */
    static final String ACTIVE_TENANTS = """
            SELECT a.tenant_id, t.billing_anchor, coalesce(t.billing_cadence, 'monthly') AS billing_cadence
            FROM (SELECT DISTINCT tenant_id FROM usage_buckets WHERE bucket_start >= $1) a
            LEFT JOIN tenants t ON t.tenant_id = a.tenant_id
            ORDER BY a.tenant_id""";

    /** Sums each tenant's hours within [start, end), for many tenants in one statement. */
    static final String PERIOD_SUMS = """
            SELECT p.tenant_id, sum(b.received) AS received, sum(b.accepted) AS accepted,
                   sum(b.deduplicated) AS deduplicated, sum(b.rate_limited) AS rate_limited,
                   sum(b.rejected_signature) AS rejected_signature, sum(b.delivered) AS delivered,
                   sum(b.dead_lettered) AS dead_lettered, sum(b.bytes_accepted) AS bytes_accepted
            FROM unnest($1::text[], $2::timestamptz[], $3::timestamptz[]) AS p(tenant_id, starts_at, ends_at)
            JOIN usage_buckets b ON b.tenant_id = p.tenant_id AND b.bucket_start >= p.starts_at
                                AND b.bucket_start < p.ends_at
            GROUP BY p.tenant_id
            ORDER BY p.tenant_id""";

    /** One batch of the retention: hours that start before {@code $1}, through the bucket_start index, by key. */
    static final String EXPIRE_BATCH = """
            DELETE FROM usage_buckets WHERE (tenant_id, bucket_start) IN (
                SELECT tenant_id, bucket_start FROM usage_buckets WHERE bucket_start < $1 LIMIT $2)""";

    /**
     * How long hours are kept: two of the longest periods. The push reads the current period (it starts less than
     * {@link BillingPeriod#LONGEST} ago, whatever the tenant's anchor and cadence) and the lifecycle scan's firsts read
     * the last {@link BillingPeriod#LONGEST}; the previous period is kept whole beside it, so last period's figures can
     * still be recomputed (a dispute, a control plane rebuilt) until the current one ends.
     */
    public static final Duration RETENTION = BillingPeriod.LONGEST.multipliedBy(2);

    /** A tenant with activity, and how it is billed. */
    public record ActiveTenant(String tenantId, OffsetDateTime billingAnchor, String billingCadence) {
    }

    private final Pool pool;

    public UsageStore(Pool pool) {
        this.pool = pool;
    }

    public Uni<Void> flush(List<UsageCounters.Counts> counts) {
        int n = counts.size();
        String[] tenants = new String[n];
        Long[][] columns = new Long[UsageMetric.values().length][n];
        for (int i = 0; i < n; i++) {
            tenants[i] = counts.get(i).tenantId();
            for (UsageMetric m : UsageMetric.values()) {
                columns[m.ordinal()][i] = counts.get(i).get(m);
            }
        }
        Tuple args = Tuple.of(tenants);
        for (Long[] column : columns) {
            args.addArrayOfLong(column);
        }
        return pool.preparedQuery(FLUSH).execute(args).replaceWithVoid();
    }

    /** Deletes at most {@code limit} hours that start before {@code cutoff}; completes with how many. */
    public Uni<Integer> expireBatch(OffsetDateTime cutoff, int limit) {
        return pool.preparedQuery(EXPIRE_BATCH).execute(Tuple.of(cutoff, limit)).map(rows -> rows.rowCount());
    }

    public Uni<List<ActiveTenant>> activeSince(OffsetDateTime since) {
        return pool.preparedQuery(ACTIVE_TENANTS).execute(Tuple.of(since)).map(rows -> {
            List<ActiveTenant> out = new ArrayList<>(rows.rowCount());
            for (Row r : rows) {
                out.add(new ActiveTenant(r.getString(0), r.getOffsetDateTime(1), r.getString(2)));
            }
            return out;
        });
    }

    /** Sums per tenant for the given periods; tenants with no hour in their period are absent. */
    public Uni<List<UsageCounters.Counts>> sums(List<String> tenants, List<BillingPeriod> periods) {
        OffsetDateTime[] starts = periods.stream().map(BillingPeriod::startsAt).toArray(OffsetDateTime[]::new);
        OffsetDateTime[] ends = periods.stream().map(BillingPeriod::endsAt).toArray(OffsetDateTime[]::new);
        return pool.preparedQuery(PERIOD_SUMS)
                .execute(Tuple.of(tenants.toArray(String[]::new), starts, ends))
                .map(rows -> {
                    List<UsageCounters.Counts> out = new ArrayList<>(rows.rowCount());
                    for (Row r : rows) {
                        long[] values = new long[UsageMetric.values().length];
                        for (UsageMetric m : UsageMetric.values()) {
                            values[m.ordinal()] = r.getLong(m.column());
                        }
                        out.add(new UsageCounters.Counts(r.getString("tenant_id"), values));
                    }
                    return out;
                });
    }
}
