-- Optional per-tenant delivery pace for origins that cannot take bursts: at most this many events per second.
-- NULL: as fast as the origin answers (within the global bulkhead).
ALTER TABLE tenants ADD COLUMN delivery_rate integer CHECK (delivery_rate > 0);
