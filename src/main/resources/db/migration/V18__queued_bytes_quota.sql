-- The per-tenant storage quota (docs/operations.md, "The queue quota"): queue_depth (V12) also counts the body bytes
-- each tenant has queued, kept by the same statement-level triggers, and a tenant may have its own quota.

-- First the locks, before anything else here takes one (a writer holds event_queue, then takes queue_depth in its
-- trigger: the same order). SHARE on event_queue waits for the writes in flight to commit and blocks new ones until
-- this migration commits; the fold's lock (QueueDepthFold.FOLD_LOCK) waits for a fold in progress and keeps the next
-- one out. So the recount at the end sees every committed row once and nothing moves beside it. Its cost is V12's:
-- one pass over event_queue (4.1 s for 10 million fresh rows there), writers waiting meanwhile.
LOCK TABLE event_queue IN SHARE MODE;
SELECT pg_advisory_xact_lock(8170767157620663908);

-- NULL: the service default (buffer.queue.max-queued-bytes-per-tenant).
ALTER TABLE tenants ADD COLUMN max_queued_bytes bigint CHECK (max_queued_bytes > 0);

-- sum(octet_length(body)) of the tenant's queued rows, as events is their count. The default only fills the rows that
-- exist now (recounted below); it is dropped then, so a writer that does not name the column fails instead of counting
-- 0: the fold of a replica still running the previous version (it adds up events only) fails and changes nothing
-- while the new version's fold does the work, so no byte is lost during a rolling upgrade.
ALTER TABLE queue_depth ADD COLUMN bytes bigint NOT NULL DEFAULT 0;
ALTER TABLE queue_depth ALTER COLUMN bytes DROP DEFAULT;

-- As in V12, one upsert per statement and tenant. octet_length of a bytea reads its stored length (a TOASTed body is
-- not fetched for it).
CREATE OR REPLACE FUNCTION queue_depth_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO queue_depth AS d (tenant_id, shard, events, bytes)
    SELECT tenant_id, pg_backend_pid(),
           CASE TG_OP WHEN 'INSERT' THEN count(*) ELSE -count(*) END,
           CASE TG_OP WHEN 'INSERT' THEN sum(octet_length(body)) ELSE -sum(octet_length(body)) END
    FROM changed GROUP BY tenant_id ORDER BY tenant_id
    ON CONFLICT (tenant_id, shard) DO UPDATE SET events = d.events + excluded.events, bytes = d.bytes + excluded.bytes;
    RETURN NULL;
END
$$;

-- The rows already queued, counted again with their bytes.
DELETE FROM queue_depth;
INSERT INTO queue_depth (tenant_id, shard, events, bytes)
SELECT tenant_id, 0, count(*), coalesce(sum(octet_length(body)), 0) FROM event_queue GROUP BY tenant_id;
