-- Queue depth per tenant, kept by the statements that change event_queue, so the backlog snapshot, the lifecycle
-- scan and the per-tenant backlog command read a handful of rows per tenant instead of counting its queued events
-- (a count over the primary key visits the heap for rows too fresh to be all-visible: 0.8-0.9 s over 317k rows).
--
-- A tenant's depth is sum(events) over its rows. Each row is one backend's running delta (shard = pg_backend_pid()),
-- so two transactions that run at the same time never update the same row: live backends have distinct pids. The
-- group commit of one replica, the drainer's deletes and other replicas' commits never wait for each other's commit
-- on a counter. Shard 0 (no backend has pid 0) is where queue.QueueDepthFold adds up the other rows every
-- buffer.queue.depth-fold-interval, so a tenant has its shard-0 row plus one row per backend that touched it since,
-- and a tenant with nothing queued has no row at all. No secondary index: the snapshot reads the whole (small)
-- table, and the trigger's upsert and the per-tenant reads use the primary key.
CREATE TABLE queue_depth (
    tenant_id text    NOT NULL,
    shard     integer NOT NULL,
    events    bigint  NOT NULL,
    PRIMARY KEY (tenant_id, shard)
) WITH (
    -- Every commit updates its backend's rows in place: room on the page keeps those updates HOT (no index write),
    -- and the few dead versions they leave are pruned when the page is next read. Vacuum it often: it is tiny.
    fillfactor = 50,
    autovacuum_vacuum_scale_factor = 0,
    autovacuum_vacuum_threshold = 1000,
    autovacuum_vacuum_cost_delay = 0
);

-- Statement-level triggers with transition tables: one upsert per statement and tenant, whatever the statement is
-- (the group commit, a dead-letter replay, the drainer's deletes and dead-lettering, a manual DELETE or COPY), so no
-- writer can forget it and the counts commit or roll back with the rows. Both triggers name their transition table
-- "changed"; TG_OP gives the sign. ORDER BY tenant_id: a statement takes its row locks in one order (its own shard
-- only; the fold never waits for a lock, see QueueDepthFold).
CREATE FUNCTION queue_depth_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO queue_depth AS d (tenant_id, shard, events)
    SELECT tenant_id, pg_backend_pid(), CASE TG_OP WHEN 'INSERT' THEN count(*) ELSE -count(*) END
    FROM changed GROUP BY tenant_id ORDER BY tenant_id
    ON CONFLICT (tenant_id, shard) DO UPDATE SET events = d.events + excluded.events;
    RETURN NULL;
END
$$;

-- After a TRUNCATE, no counts. The lock is the one a fold holds (QueueDepthFold.FOLD_LOCK, "qdepthfd"): waiting for a
-- fold in progress means its shard-0 rows are committed, and so seen and deleted here, not left behind.
CREATE FUNCTION queue_depth_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_advisory_xact_lock(8170767157620663908);
    DELETE FROM queue_depth;
    RETURN NULL;
END
$$;

-- An UPDATE never changes a tenant's count (attempts, due times, errors) unless it moves a row to another tenant:
-- refuse that, so the counts cannot drift. A row trigger on the column fires only for an UPDATE that sets tenant_id,
-- so the drainer's updates pay nothing for it.
CREATE FUNCTION queue_tenant_fixed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.tenant_id IS DISTINCT FROM OLD.tenant_id THEN
        RAISE EXCEPTION 'event_queue.tenant_id cannot change (queue_depth counts rows per tenant)';
    END IF;
    RETURN NEW;
END
$$;

CREATE TRIGGER queue_depth_added AFTER INSERT ON event_queue
    REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION queue_depth_changed();
CREATE TRIGGER queue_depth_removed AFTER DELETE ON event_queue
    REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION queue_depth_changed();
CREATE TRIGGER queue_depth_truncated AFTER TRUNCATE ON event_queue
    FOR EACH STATEMENT EXECUTE FUNCTION queue_depth_truncated();
CREATE TRIGGER queue_tenant_fixed BEFORE UPDATE OF tenant_id ON event_queue
    FOR EACH ROW EXECUTE FUNCTION queue_tenant_fixed();

-- The rows already queued, counted once. CREATE TRIGGER above holds a lock on event_queue that blocks every write
-- until this migration commits, so nothing is counted twice or missed; writers of replicas still running the
-- previous version wait meanwhile (4.1 s for 10 million fresh rows here, docs/operations.md).
INSERT INTO queue_depth (tenant_id, shard, events)
SELECT tenant_id, 0, count(*) FROM event_queue GROUP BY tenant_id;
