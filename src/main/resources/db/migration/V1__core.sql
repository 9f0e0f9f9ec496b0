-- webhook-buffer core schema. Every index has a comment saying which query needs it: an index costs every insert
-- on the hot path, so none exists without a reader.

-- Tenants: the system of record for ingest configuration. Written by the control plane, read by ingress
-- through a cache (one primary-key lookup per cache miss or refresh).
CREATE TABLE tenants (
    tenant_id           text        PRIMARY KEY CHECK (tenant_id ~ '^[A-Za-z0-9_-]{1,64}$'),
    active              boolean     NOT NULL,
    provider            text        NOT NULL,
    -- Active signing secrets, current first. Needed in clear to compute HMACs; never copied into event rows.
    secrets             text[]      NOT NULL,
    rate_limit          integer     NOT NULL CHECK (rate_limit > 0),
    rate_window_seconds integer     NOT NULL CHECK (rate_window_seconds > 0),
    -- NULL: the service default (buffer.ingress.max-body-bytes).
    max_body_bytes      integer     CHECK (max_body_bytes > 0),
    created_at          timestamptz NOT NULL DEFAULT now(),
    updated_at          timestamptz NOT NULL DEFAULT now()
);

-- Dedupe records: the truth about which events were accepted. The primary key is the dedupe guarantee
-- (the group-commit statement inserts here with ON CONFLICT DO NOTHING).
CREATE TABLE processed_events (
    tenant_id   text        NOT NULL,
    event_id    text        NOT NULL,
    received_at timestamptz NOT NULL,
    PRIMARY KEY (tenant_id, event_id)
);
-- For the retention job (DedupeRetention): finds expired rows without reading the table. BRIN, not btree: rows
-- arrive in received_at order, so a summary per block range is enough, and it costs next to nothing on the hot
-- insert (a third btree measured ~15% of the group-commit statement's cost).
CREATE INDEX processed_events_received_at_brin ON processed_events USING brin (received_at);

-- The durable queue: one row per accepted event until the origin has it. Never deleted by range: rows are
-- deleted by explicit id, because with several writers ids commit out of order.
CREATE TABLE event_queue (
    id              bigint      GENERATED ALWAYS AS IDENTITY,
    tenant_id       text        NOT NULL,
    event_id        text        NOT NULL,
    -- The raw body, byte for byte, as the provider sent it.
    body            bytea       NOT NULL,
    content_type    text        NOT NULL,
    -- Only the few headers the origin needs; never signatures, tokens or secrets.
    headers         jsonb       NOT NULL DEFAULT '{}'::jsonb,
    received_at     timestamptz NOT NULL,
    attempts        integer     NOT NULL DEFAULT 0,
    next_attempt_at timestamptz NOT NULL,
    last_error      text,
    -- One index serves every reader: the drainer claims a tenant's oldest rows in id order (FIFO per tenant),
    -- deletes name (tenant_id, id) pairs, and backlog depth/age is per tenant. A separate primary key on id alone
    -- would be a second btree on the hot insert for no reader.
    PRIMARY KEY (tenant_id, id)
);

-- Events the origin will never take (refused, or past the attempt/age cap), with the reason.
CREATE TABLE dead_letters (
    id           bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    tenant_id    text        NOT NULL,
    event_id     text        NOT NULL,
    body         bytea       NOT NULL,
    content_type text        NOT NULL,
    headers      jsonb       NOT NULL DEFAULT '{}'::jsonb,
    received_at  timestamptz NOT NULL,
    attempts     integer     NOT NULL,
    last_status  integer,
    last_error   text,
    dead_at      timestamptz NOT NULL DEFAULT now()
);
-- For listing a tenant's dead letters by time (the SRE's list and replay commands).
CREATE INDEX dead_letters_tenant_dead_at_idx ON dead_letters (tenant_id, dead_at);
