-- The retention job (ops.Retention) removes dead letters by the time they died, across tenants: the only index on
-- dead_at leads with tenant_id, so without this one each batch would read the whole table.
CREATE INDEX dead_letters_dead_at_idx ON dead_letters (dead_at);
-- ... and delivered lifecycle events by the time they were delivered; undelivered rows (the outbox) never go, and a
-- partial index holds only the delivered ones.
CREATE INDEX lifecycle_events_delivered_at_idx ON lifecycle_events (delivered_at) WHERE delivered_at IS NOT NULL;
