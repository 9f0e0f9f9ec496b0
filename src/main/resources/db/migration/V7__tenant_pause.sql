-- Pause: the control plane can stop delivery for a tenant while ingest keeps buffering. The flag lives here, not in
-- a replica's memory, because the drainer of a tenant can be any replica: each one checks it in the same statement
-- that reads the tenant's head (DrainStore.RENEW_AND_HEAD) and its sweep skips paused tenants.
ALTER TABLE tenants ADD COLUMN paused boolean NOT NULL DEFAULT false;
