-- Tracing (issue 44, docs/operations.md "Tracing"). dead_letters.trace_parent: the W3C traceparent of the ingest span
-- that stored the event (event_queue.trace_parent, V24), kept when the event moves to dead_letters and given back to
-- event_queue on a replay, so the replayed delivery still links to the event's ingest span and the origin gets the
-- event's own context again. A nullable column: no rewrite of the table.
ALTER TABLE dead_letters ADD COLUMN trace_parent text;
