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

