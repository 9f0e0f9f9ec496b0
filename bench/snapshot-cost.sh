#!/usr/bin/env bash
# The backlog snapshot's cost at backlogs far apart (issue 17 item 4; docs/performance.md, "The backlog snapshot's
# cost"): the snapshot's statement as it was (a count per tenant over the (tenant_id, id) primary key) and as it is
# (the queue_depth counters of migration V12, summed per tenant), each run three times under EXPLAIN (ANALYZE,
# BUFFERS), at 10,000 and at 10,000,000 queued events, over 10 and over 1,000 tenants.
#
# usage: bench/snapshot-cost.sh [--small]
#   --small   only the 10,000-event points (seconds; no big fill)
# Settings (environment): SNAPSHOT_COST_DATABASE (wb_snapshot_cost; a second one, <name>_many, holds the
# 1,000-tenant 10k point), SNAPSHOT_COST_EVENTS (10000000), SNAPSHOT_COST_BODY_BYTES (100: small bodies keep the
# fill to ~3 GB; real ones would make the old count's heap visits slower still), SNAPSHOT_COST_KEEP (set: leave the
# databases), PGHOST/PGPORT/PGUSER (127.0.0.1, 5432, postgres).
# The databases are dropped and created here, with the schema of src/main/resources/db/migration applied by psql in
# Flyway's order (V1..V11, the rows filled, then V12, which counts the rows already queued). Autovacuum is off on the
# scratch event_queue, so "fresh" means what it means after a burst: no page all-visible yet, every count visits the
# heap; "vacuumed" is the other end, after VACUUM. Prints one table; the fill of 10M rows takes a few minutes.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

small=""
case "${1:-}" in
  "") ;;
  --small) small=1;;
  -h|--help) sed -n '7,12p' "$0" | sed 's/^# \{0,1\}//'; exit 2;;
  *) echo "unknown argument $1" >&2; exit 2;;
esac
export PGHOST=${PGHOST:-127.0.0.1} PGPORT=${PGPORT:-5432} PGUSER=${PGUSER:-postgres}
db=${SNAPSHOT_COST_DATABASE:-wb_snapshot_cost}
many="${db}_many"
big=${SNAPSHOT_COST_EVENTS:-10000000}
body_bytes=${SNAPSHOT_COST_BODY_BYTES:-100}
migrations=src/main/resources/db/migration

# The snapshot's statement until the counters (QueueSnapshots.BACKLOG at commit ac971f5, $1 = 100 tenants kept).
old_backlog="WITH RECURSIVE t AS (
    (SELECT tenant_id FROM event_queue ORDER BY tenant_id LIMIT 1)
    UNION ALL
    SELECT (SELECT q.tenant_id FROM event_queue q WHERE q.tenant_id > t.tenant_id ORDER BY q.tenant_id LIMIT 1)
    FROM t WHERE t.tenant_id IS NOT NULL
), per AS (
    SELECT t.tenant_id, (SELECT count(*) FROM event_queue c WHERE c.tenant_id = t.tenant_id) AS events,
           h.received_at AS oldest, h.attempts, h.next_attempt_at AS next_attempt,
           CASE WHEN h.attempts > 0 THEN h.last_status END AS last_status,
           CASE WHEN h.attempts > 0 THEN h.last_error END AS last_error
    FROM t CROSS JOIN LATERAL (
        SELECT q.received_at, q.attempts, q.next_attempt_at, q.last_status, q.last_error
        FROM event_queue q WHERE q.tenant_id = t.tenant_id ORDER BY q.id LIMIT 1) h
    WHERE t.tenant_id IS NOT NULL
)"
# ... and with the counters (QueueSnapshots.QUEUED_HEADS now).
new_backlog="WITH depth AS (
    SELECT tenant_id, sum(events)::bigint AS events FROM queue_depth GROUP BY tenant_id HAVING sum(events) > 0
), per AS (
    SELECT d.tenant_id, d.events, h.received_at AS oldest, h.attempts, h.next_attempt_at AS next_attempt,
           CASE WHEN h.attempts > 0 OR h.waits > 0 THEN h.last_status END AS last_status,
           CASE WHEN h.attempts > 0 OR h.waits > 0 THEN h.last_error END AS last_error
    FROM depth d CROSS JOIN LATERAL (
        SELECT q.received_at, q.attempts, q.waits, q.next_attempt_at, q.last_status, q.last_error
        FROM event_queue q WHERE q.tenant_id = d.tenant_id ORDER BY q.id LIMIT 1) h
)"
# The rest of QueueSnapshots.BACKLOG, the same before and after.
backlog_tail=", totals AS (
    SELECT coalesce(sum(events), 0)::bigint AS events, min(oldest) AS oldest, count(*) AS tenants FROM per
), top AS (SELECT * FROM per ORDER BY oldest LIMIT 100)
SELECT t.events AS total_events, coalesce(extract(epoch FROM now() - t.oldest), 0)::bigint AS total_age,
       t.tenants AS total_tenants, top.tenant_id, top.events,
       greatest(0, extract(epoch FROM now() - top.oldest))::bigint AS age, top.attempts, top.next_attempt,
       top.last_status, top.last_error, coalesce(tn.paused, false) AS paused
FROM totals t LEFT JOIN top ON true LEFT JOIN tenants tn ON tn.tenant_id = top.tenant_id ORDER BY top.oldest"
# One tenant's backlog (QueueInspector.BACKLOG, GET /control/tenants/{id}/backlog) before and after, for tenant 0001.
old_inspector="SELECT count(*) AS depth, min(received_at) AS oldest, min(next_attempt_at) AS next_attempt
FROM event_queue WHERE tenant_id = 'tenant-0001'"
new_inspector="SELECT (SELECT coalesce(sum(qd.events), 0)::bigint FROM queue_depth qd WHERE qd.tenant_id = 'tenant-0001')
       AS depth, h.received_at AS oldest, h.next_attempt_at AS next_attempt
FROM (SELECT 1) one LEFT JOIN LATERAL (SELECT received_at, next_attempt_at FROM event_queue
    WHERE tenant_id = 'tenant-0001' ORDER BY id LIMIT 1) h ON true"

on() { psql -X -q -v ON_ERROR_STOP=1 -d "$1" "${@:2}"; }

migrate() { # DB before|v12|after: the migrations before V12, V12 alone, or those after it, in Flyway's version order
  local key f
  while read -r key f; do
    if [ "${key%%.*}" -lt 12 ]; then [ "$2" = before ] || continue
    elif [ "${key%%.*}" -eq 12 ]; then [ "$2" = v12 ] || continue
    else [ "$2" = after ] || continue
    fi
    on "$1" -1 -f "$migrations/$f" # one transaction each, as Flyway applies them
  done < <(ls "$migrations" | sed -E 's/^V([0-9_]+)__.*/\1 &/' | awk '{k = $1; gsub("_", ".", k); print k, $2}' | sort -V)
}

fresh_db() { # DB: dropped, created, the schema before V12, autovacuum off on event_queue
  on postgres -c "DROP DATABASE IF EXISTS $1 WITH (FORCE)" -c "CREATE DATABASE $1"
  migrate "$1" before
  on "$1" -c "ALTER TABLE event_queue SET (autovacuum_enabled = false)"
}

fill() { # DB PREFIX TENANTS FROM TO: rows FROM..TO, round-robin over TENANTS tenants, 250k rows per statement
  local d=$1 prefix=$2 tenants=$3 from=$4 to=$5 start end
  for (( start = from; start <= to; start += 250000 )); do
    end=$(( start + 249999 < to ? start + 249999 : to ))
    on "$d" -c "INSERT INTO event_queue (tenant_id, event_id, body, content_type, received_at, next_attempt_at)
      SELECT '$prefix' || lpad((1 + g % $tenants)::text, 4, '0'), 'e-' || g, convert_to(repeat('x', $body_bytes), 'UTF8'),
             'application/json', timestamptz '2026-12-01 00:00Z' + g * interval '1 ms',
             timestamptz '2026-12-01 00:00Z' + g * interval '1 ms'
      FROM generate_series($start, $end) g"
  done
}

explain() { # DB SQL: "first / second / third ms (buffers of the first)"
  local out times=() bufs=""
  for i in 1 2 3; do
    out=$(on "$1" -At -c "EXPLAIN (ANALYZE, BUFFERS) $2")
    times+=("$(echo "$out" | awk '/^Execution Time/ {print $3}')")
    [ -z "$bufs" ] && bufs=$(echo "$out" | awk '/Buffers:/ {sub(/^ *Buffers: */, ""); print; exit}')
  done
  printf '%s / %s / %s ms | %s' "${times[0]}" "${times[1]}" "${times[2]}" "$bufs"
}

rows=()
point() { # DB LABEL: the snapshot old and new
  rows+=("| $2 | before (count per tenant) | $(explain "$1" "$old_backlog$backlog_tail") |")
  rows+=("| $2 | after (counters) | $(explain "$1" "$new_backlog$backlog_tail") |")
}

timed() { # LABEL COMMAND...: runs it, adds a row with its wall time
  local t0 t1
  t0=$(date +%s%N); "${@:2}"; t1=$(date +%s%N)
  rows+=("| $1 | $(( (t1 - t0) / 1000000 )) ms | | |")
}

echo "== 10 tenants, 10,000 events"
fresh_db "$db"
fill "$db" tenant- 10 1 10000
timed "V12 migration over 10,000 queued events (one time)" migrate "$db" v12
migrate "$db" after # the later columns the statement reads (event_queue.waits, V21)
point "$db" "10 tenants, 10k events, fresh"
on "$db" -c "VACUUM (ANALYZE) event_queue"
point "$db" "10 tenants, 10k events, vacuumed"

echo "== 1,000 tenants, 10,000 events (database $many)"
fresh_db "$many"
fill "$many" tenant- 1000 1 10000
migrate "$many" v12
migrate "$many" after
point "$many" "1,000 tenants, 10k events, fresh"
# Between two folds a tenant has a row per backend that wrote it since: 8 more rows per tenant (summing to zero).
on "$many" -c "INSERT INTO queue_depth (tenant_id, shard, events, bytes)
    SELECT tenant_id, s, CASE WHEN s % 2 = 1 THEN 7 ELSE -7 END, 0
    FROM (SELECT DISTINCT tenant_id FROM queue_depth) t CROSS JOIN generate_series(1, 8) s"
point "$many" "1,000 tenants, 10k events, 9 counter rows per tenant"
[ -n "${SNAPSHOT_COST_KEEP:-}" ] || on postgres -c "DROP DATABASE $many WITH (FORCE)"

if [ -z "$small" ]; then
  echo "== 10 tenants, $big events (the fill runs through the triggers, 250k rows per statement)"
  timed "fill from 10,000 to $big events (through the triggers)" fill "$db" tenant- 10 10001 "$big"
  on "$db" -c "ANALYZE event_queue"
  point "$db" "10 tenants, 10M events, fresh"
  rows+=("| 10 tenants, 10M events, fresh | one tenant's backlog (1M events), before | $(explain "$db" "$old_inspector") |")
  rows+=("| 10 tenants, 10M events, fresh | one tenant's backlog (1M events), after | $(explain "$db" "$new_inspector") |")
  init=$(on "$db" -At -c "BEGIN" -c "EXPLAIN (ANALYZE) INSERT INTO queue_depth (tenant_id, shard, events)
      SELECT tenant_id, -1, count(*) FROM event_queue GROUP BY tenant_id" -c "ROLLBACK" | awk '/^Execution Time/ {print $3}')
  rows+=("| V12's initial count over $big fresh events (one time, rolled back here) | $init ms | | |")
  timed "VACUUM of the 10M events" on "$db" -c "VACUUM (ANALYZE) event_queue"
  point "$db" "10 tenants, 10M events, vacuumed"
  fill "$db" tenant- 1000 $(( big + 1 )) $(( big + 9900 ))
  on "$db" -c "INSERT INTO queue_depth SELECT tenant_id, s, CASE WHEN s % 2 = 1 THEN 7 ELSE -7 END
      FROM (SELECT DISTINCT tenant_id FROM queue_depth) t CROSS JOIN generate_series(1, 8) s"
  point "$db" "1,000 tenants, 10M events (10 of them 1M each), 9 counter rows per tenant"
fi
[ -n "${SNAPSHOT_COST_KEEP:-}" ] || on postgres -c "DROP DATABASE $db WITH (FORCE)"

echo
echo "| point | statement | EXPLAIN ANALYZE, three runs | buffers (first run) |"
echo "| --- | --- | --- | --- |"
printf '%s\n' "${rows[@]}"
