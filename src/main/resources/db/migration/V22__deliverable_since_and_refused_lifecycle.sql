-- buffer.delivery.max-age bounds how long the buffer keeps trying an event, so it counts from when the event last
-- became deliverable (docs/delivery.md "Failures and dead letters"), not from its receipt:
-- event_queue.deliverable_since: set by a replay from dead_letters (received_at, what the origin sees, is kept);
--   NULL for an event never replayed (deliverable since received_at).
-- tenants.deliverable_since: set when the tenant's delivery starts again after it stopped: a resume, and each look of
--   the drainer while its batches are held (origin not allowed, or none). NULL: never stopped. Kept on the tenant, not
--   written to each queued row: a resume after a long pause must not rewrite millions of rows.
-- The drainer reads greatest(received_at, both) with the head (queue.DrainStore). Nullable, no default: adding them
-- rewrites no row.
ALTER TABLE event_queue ADD COLUMN deliverable_since timestamptz;
ALTER TABLE tenants ADD COLUMN deliverable_since timestamptz;

-- Lifecycle events the control plane refused (a 4xx for the event alone, after halving the batch) are set aside:
-- refused_at set, last_error the answer; never sent again, so they cannot block the events behind them. Kept, like
-- delivered ones, for buffer.queue.dead-letter-retention (ops.Retention), found by the partial index below.
ALTER TABLE lifecycle_events ADD COLUMN refused_at timestamptz;
DROP INDEX lifecycle_events_undelivered_idx;
CREATE INDEX lifecycle_events_undelivered_idx ON lifecycle_events (id) WHERE delivered_at IS NULL AND refused_at IS NULL;
CREATE INDEX lifecycle_events_refused_at_idx ON lifecycle_events (refused_at) WHERE refused_at IS NOT NULL;
