-- The durable-commit ceiling: the group-commit statement of queue/GroupCommitWriter (dedupe insert ON CONFLICT DO
-- NOTHING RETURNING, feeding the queue insert, in one statement and one transaction) with 50 rows of 1.26 KB bodies,
-- driven by pgbench against copies of the two tables (same columns, keys and indexes) and of the queue's depth
-- counters (V12: the table and the triggers the real queue insert fires, made from the migration with the names
-- changed, so the ceiling pays what the real statement pays). bench/run.sh creates the copies, runs
-- `pgbench -n -f bench/commit-ceiling.sql`, and drops them. Rows/s = tps × 50.
\set t random(1, 10)
WITH input AS (
    SELECT DISTINCT ON (tenant_id, event_id) *
    FROM (SELECT 'ceiling-' || :t AS tenant_id,
                 md5(:client_id || '-' || clock_timestamp()::text || '-' || g) AS event_id,
                 convert_to(repeat('x', 1260), 'UTF8') AS body, 'application/json'::text AS content_type,
                 '{}'::text AS headers, now() AS received_at
          FROM generate_series(1, 50) AS g) AS rows
), locked AS MATERIALIZED (
    -- the tenants' commit locks, as the real statement takes them (CommitSql.CLAIM)
    SELECT count(*) AS tenants FROM (
        SELECT pg_advisory_xact_lock(2002911233, k) FROM (
            SELECT DISTINCT (hashtext(tenant_id) & 63) AS k FROM input ORDER BY 1
        ) keys
    ) l
), dedupe AS (
    INSERT INTO bench_ceiling_dedupe (tenant_id, event_id, received_at)
    SELECT tenant_id, event_id, received_at FROM input, locked
    ON CONFLICT (tenant_id, event_id) DO NOTHING
    RETURNING tenant_id, event_id
)
INSERT INTO bench_ceiling_queue (tenant_id, event_id, body, content_type, headers, received_at, next_attempt_at)
SELECT i.tenant_id, i.event_id, i.body, i.content_type, i.headers::jsonb, i.received_at, i.received_at
FROM input i JOIN dedupe d ON d.tenant_id = i.tenant_id AND d.event_id = i.event_id
RETURNING tenant_id, event_id;
