-- Delivery to the origin: per-tenant origin override, last delivery status on queued rows, and drain leases.

-- NULL: buffer.origin.base-url.
ALTER TABLE tenants ADD COLUMN origin_url text;

-- The origin's last answer for the row (HTTP status; NULL for a network error or timeout).
ALTER TABLE event_queue ADD COLUMN last_status integer;

-- One drainer per tenant across all replicas. A lease is taken by an INSERT ... ON CONFLICT that succeeds only when
-- the row is absent, expired, or already ours, and every delete or update of a tenant's queue rows joins this table
-- on (tenant_id, token): a replica that lost its lease (paused, partitioned) cannot delete or dead-letter rows that
-- its successor now owns. That fencing is why the lease lives here and not in Redis: it is checked in the same
-- statement as the write it guards. Primary key: the acquire/renew/release statements look up by tenant.
CREATE TABLE drain_leases (
    tenant_id  text        PRIMARY KEY,
    holder     text        NOT NULL,
    token      bigint      NOT NULL,
    expires_at timestamptz NOT NULL
);
CREATE SEQUENCE drain_lease_tokens;
