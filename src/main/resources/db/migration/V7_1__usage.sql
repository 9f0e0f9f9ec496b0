-- Usage for billing (the control-plane seam, "usage up").

-- Per-tenant billing period settings: the anchor (a whole hour, UTC) and the cadence. NULL anchor: calendar
-- periods from 2000-01-01T00:00Z (monthly = the first of each month).
ALTER TABLE tenants ADD COLUMN billing_anchor timestamptz;
ALTER TABLE tenants ADD COLUMN billing_cadence text NOT NULL DEFAULT 'monthly'
    CHECK (billing_cadence IN ('monthly', 'weekly', 'daily'));

-- Counters per tenant per hour. Each replica counts in memory (never a database write per event) and adds its
-- counts here every buffer.usage.flush-interval with INSERT ... ON CONFLICT DO UPDATE SET x = x + excluded.x, so
-- replicas add up and restarts lose nothing already flushed. A snapshot sums the hours of the billing period.
-- Primary key: the additive upsert finds its row by it, and the snapshot reads a tenant's hours in a range by it.
CREATE TABLE usage_buckets (
    tenant_id          text        NOT NULL,
    bucket_start       timestamptz NOT NULL,
    received           bigint      NOT NULL DEFAULT 0,
    accepted           bigint      NOT NULL DEFAULT 0,
    deduplicated       bigint      NOT NULL DEFAULT 0,
    rate_limited       bigint      NOT NULL DEFAULT 0,
    rejected_signature bigint      NOT NULL DEFAULT 0,
    delivered          bigint      NOT NULL DEFAULT 0,
    dead_lettered      bigint      NOT NULL DEFAULT 0,
    bytes_accepted     bigint      NOT NULL DEFAULT 0,
    PRIMARY KEY (tenant_id, bucket_start)
);
-- The snapshot job's "tenants with activity lately" scan reads recent hours of every tenant through this index.
CREATE INDEX usage_buckets_bucket_start_idx ON usage_buckets (bucket_start);

-- Periodic jobs that must run on one replica per interval (usage push, lifecycle scan): a replica runs the job only
-- when it moves claimed_until forward from the past, in one statement.
CREATE TABLE job_claims (
    name          text        PRIMARY KEY,
    claimed_until timestamptz NOT NULL
);
