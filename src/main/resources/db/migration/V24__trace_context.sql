-- Tracing (issue 44, docs/operations.md "Tracing"). event_queue.trace_parent: the W3C traceparent of the ingest span
-- that stored the event (NULL when tracing was off), read back by the drain so the delivery span links to it and the
-- origin can continue the event's trace, however long the event waited. tenants.trust_trace_context: whether the
-- sender's own traceparent becomes the ingest span's parent (false: a new trace, the sender's is only linked). Both
-- are new columns without a rewrite: a nullable one, and a constant default (PostgreSQL 11+ stores it in the catalog).
ALTER TABLE event_queue ADD COLUMN trace_parent text;
ALTER TABLE tenants ADD COLUMN trust_trace_context boolean NOT NULL DEFAULT false;
