#!/usr/bin/env bash
# What one stored event costs PostgreSQL in bytes (issue 19 item 4; docs/cells.md, "What one event costs the
# database"): the queue row, the dedupe row and the WAL of the group commit's shape, and the WAL of the drain's delete.
# The migrations of src/main/resources/db/migration are applied by psql in Flyway's order to a scratch database, then
# EVENT_BYTES_EVENTS events (benchmark-shaped: 1.24 KB JSON bodies, 10 tenants, bound ids of 47 characters) are
# inserted as commits of 50 rows (a dedupe row and a queue row each, as the group commit writes them) after a
# checkpoint, so full-page writes count as they do in production; then they are deleted.
#
# usage: bench/event-bytes.sh
# Settings (environment): EVENT_BYTES_DATABASE (wb_event_bytes, dropped and created), EVENT_BYTES_EVENTS (100000),
# EVENT_BYTES_BODY_PAD (1180: the JSON body is ~57 bytes plus this), EVENT_BYTES_KEEP (set: leave the database),
# PGHOST/PGPORT/PGUSER (127.0.0.1, 5432, postgres). Prints one table (bytes per event). Local only.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
case "${1:-}" in
  "") ;;
  -h|--help) sed -n '9,12p' "$0" | sed 's/^# \{0,1\}//'; exit 2;;
  *) echo "unknown argument $1" >&2; exit 2;;
esac
export PGHOST=${PGHOST:-127.0.0.1} PGPORT=${PGPORT:-5432} PGUSER=${PGUSER:-postgres}
db=${EVENT_BYTES_DATABASE:-wb_event_bytes}
events=${EVENT_BYTES_EVENTS:-100000}
pad=${EVENT_BYTES_BODY_PAD:-1180}
migrations=src/main/resources/db/migration
[ "$events" -ge 50 ] && [ $((events % 50)) -eq 0 ] || { echo "EVENT_BYTES_EVENTS must be a multiple of 50" >&2; exit 2; }

on() { psql -X -q -v ON_ERROR_STOP=1 -d "$1" "${@:2}"; }
on postgres -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db"
[ -n "${EVENT_BYTES_KEEP:-}" ] || trap 'on postgres -c "DROP DATABASE IF EXISTS $db"' EXIT
while read -r _ f; do
  on "$db" -1 -f "$migrations/$f" # one transaction each, as Flyway applies them
done < <(ls "$migrations" | sed -E 's/^V([0-9_]+)__.*/\1 &/' | awk '{k = $1; gsub("_", ".", k); print k, $2}' | sort -V)

echo "| what | bytes per event |"
echo "| --- | ---: |"
on "$db" -At -F ' | ' -v batches=$((events / 50)) -v pad="$pad" -v events="$events" <<'SQL'
SELECT set_config('wb.batches', :'batches', false), set_config('wb.pad', :'pad', false) \gset
CHECKPOINT;
SELECT pg_current_wal_lsn() AS l0 \gset
DO $$
BEGIN
  FOR b IN 0 .. current_setting('wb.batches')::int - 1 LOOP
    WITH s AS (
      SELECT 't-' || (g % 10) AS tenant,
             'evt_' || lpad(g::text, 10, '0') || ':' || substr(md5(g::text), 1, 32) AS eid,
             convert_to('{"id":"evt_' || g || '","type":"bench.event","data":{"pad":"'
                        || repeat('x', current_setting('wb.pad')::int) || '"}}', 'UTF8') AS body
      FROM generate_series(b * 50, b * 50 + 49) g
    ), d AS (
      INSERT INTO processed_events (tenant_id, event_id, received_at) SELECT tenant, eid, now() FROM s
    )
    INSERT INTO event_queue (tenant_id, event_id, body, content_type, headers, received_at, next_attempt_at)
    SELECT tenant, eid, body, 'application/json',
           '{"content-type":"application/json","user-agent":"bench"}'::jsonb, now(), now() FROM s;
    COMMIT;
  END LOOP;
END $$;
SELECT pg_current_wal_lsn() AS l1 \gset
SELECT '| body (mean)', round(avg(length(body))) || ' |' FROM event_queue;
SELECT '| queue row (event_queue: heap, keys, TOAST)', round(pg_total_relation_size('event_queue') / :events::numeric) || ' |';
SELECT '| dedupe row (processed_events and its indexes)', round(pg_total_relation_size('processed_events') / :events::numeric) || ' |';
SELECT '| WAL of the insert (50-row commits, from a checkpoint)', round(pg_wal_lsn_diff(:'l1', :'l0') / :events) || ' |';
SELECT pg_current_wal_lsn() AS l2 \gset
DELETE FROM event_queue;
SELECT pg_current_wal_lsn() AS l3 \gset
SELECT '| WAL of the drain''s delete', round(pg_wal_lsn_diff(:'l3', :'l2') / :events) || ' |';
SQL
echo
echo "$events events; $(psql -X -At -d postgres -c 'SHOW server_version') full_page_writes=$(psql -X -At -d postgres -c 'SHOW full_page_writes') wal_compression=$(psql -X -At -d postgres -c 'SHOW wal_compression')"
