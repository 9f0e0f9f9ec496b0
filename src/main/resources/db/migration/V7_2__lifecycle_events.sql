-- Lifecycle events up: an outbox in the buffer's own database (at-least-once to the control plane, no broker).
-- Milestones are detected by a scanning job and inserted ON CONFLICT (dedupe_key) DO NOTHING, so a milestone seen on
-- every scan, or by two replicas, is one row. Delivered rows stay (delivered_at set) as the audit of what was sent.
CREATE TABLE lifecycle_events (
    id           bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    dedupe_key   text        NOT NULL UNIQUE,
    type         text        NOT NULL,
    tenant_id    text        NOT NULL,
    occurred_at  timestamptz NOT NULL,
    data         jsonb       NOT NULL DEFAULT '{}'::jsonb,
    attempts     integer     NOT NULL DEFAULT 0,
    last_error   text,
    delivered_at timestamptz
);
-- The delivery run reads the oldest undelivered rows: a partial index holds only those.
CREATE INDEX lifecycle_events_undelivered_idx ON lifecycle_events (id) WHERE delivered_at IS NULL;

-- Conditions that are open now (origin failing, backlog high), one row per tenant and condition; the episode number
-- makes each occurrence's event (and its recovery) a distinct dedupe key.
CREATE TABLE lifecycle_conditions (
    tenant_id text        NOT NULL,
    condition text        NOT NULL,
    episode   bigint      NOT NULL,
    since     timestamptz NOT NULL,
    PRIMARY KEY (tenant_id, condition)
);
CREATE SEQUENCE lifecycle_episodes;
