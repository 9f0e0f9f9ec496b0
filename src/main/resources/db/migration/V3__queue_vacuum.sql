-- event_queue is a queue: rows are inserted, read once or a few times, and deleted. With the default autovacuum
-- thresholds (20% of the table) the dead index entries at the head of a busy tenant's range pile up by the hundred
-- thousand before vacuum runs, and every read of that range steps over them. Vacuum it after 1% (or 1,000 rows), at
-- full speed. dead_letters and processed_events keep the defaults: they are not read at their head.
ALTER TABLE event_queue SET (
    autovacuum_vacuum_scale_factor = 0.01,
    autovacuum_vacuum_threshold = 1000,
    autovacuum_vacuum_insert_scale_factor = 0.05,
    autovacuum_vacuum_cost_delay = 0
);
