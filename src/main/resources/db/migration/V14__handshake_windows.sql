-- Secret handshakes (Asana's X-Hook-Secret): a window the operator opens with a signed command
-- (POST /control/tenants/{id}/handshake/{provider}), inside which the first handshake that arrives on the ingest path
-- sets the tenant's secret. In the database, not in memory, so that whichever replica the provider reaches sees it.
-- One row per tenant at most: opening again replaces the window (a new window_id); the handshake that uses it deletes
-- the row in the statement that stores the secret, so a window is used once. An expired row is harmless (the
-- statement checks closes_at) and is replaced by the next open. Read and written by primary key only: no other index.
CREATE SEQUENCE handshake_window_ids;
CREATE TABLE handshake_windows (
    tenant_id text        PRIMARY KEY REFERENCES tenants (tenant_id) ON DELETE CASCADE,
    provider  text        NOT NULL,
    window_id bigint      NOT NULL DEFAULT nextval('handshake_window_ids'),
    opened_at timestamptz NOT NULL,
    closes_at timestamptz NOT NULL,
    CHECK (closes_at > opened_at)
);
