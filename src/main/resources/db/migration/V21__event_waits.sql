-- waits: the tries after which the event waited out a backoff (its tenant's or, held aside, its own). The backoff
-- grows with it. attempts now counts every try that carried the event, the quick halving tries included (the
-- origin sees it as "attempts"), so it can no longer drive the backoff: a halving of a 50-event batch would add six
-- doublings to the first wait after it. A constant default: adding the column rewrites no row (rows queued before
-- start their backoff afresh).
ALTER TABLE event_queue ADD COLUMN waits integer NOT NULL DEFAULT 0;
