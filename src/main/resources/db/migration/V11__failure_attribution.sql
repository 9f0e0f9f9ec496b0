-- Failure attribution (delivery.FailurePolicy). attempts keeps counting every try (the origin sees it as
-- "attempts"); failures counts only the tries that failed for the event's own reason: it was sent alone and failed,
-- and the origin accepted another batch between that try and the one before. buffer.delivery.max-attempts bounds
-- failures, so an origin that is down, slow or overloaded never moves an event toward dead_letters.
-- isolated_at: when the event last failed alone (it is held aside from its tenant's batches and retried alone);
-- NULL for an event never suspected. Both columns have constant defaults: adding them rewrites no row.
ALTER TABLE event_queue
    ADD COLUMN failures integer NOT NULL DEFAULT 0,
    ADD COLUMN isolated_at timestamptz;
