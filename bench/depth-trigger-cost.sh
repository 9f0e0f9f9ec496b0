#!/usr/bin/env bash
# What the queue_depth counters (migration V12) cost the group-commit statement (issue 17 item 4; docs/performance.md,
# "The backlog snapshot's cost"): bench/commit-ceiling.sql's statement three ways, as three scripts of ONE pgbench run
# (-f none@1 -f trigger@1 -f cte@1: each transaction picks one at random, so all three share every moment of a noisy
# machine), and their latency ratios:
#   none     against copies of event_queue and processed_events without triggers (the statement before V12)
#   trigger  against event_queue itself, with V12's triggers (the statement as it runs)
#   cte      without triggers, the same upsert written into the statement's CTE (the alternative not taken)
#
# usage: bench/depth-trigger-cost.sh [RUNS [SECONDS [CLIENTS]]]   (5, 10, 2), for both shapes: 50 rows of one tenant
#   per transaction (the ceiling's) and 50 rows over 10 tenants. Settings: DEPTH_COST_DATABASE (wb_depth_cost; dropped
#   and created with the schema of src/main/resources/db/migration, dropped at the end), PGHOST/PGPORT/PGUSER.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
export PGHOST=${PGHOST:-127.0.0.1} PGPORT=${PGPORT:-5432} PGUSER=${PGUSER:-postgres}
db=${DEPTH_COST_DATABASE:-wb_depth_cost}
runs=${1:-5}; seconds=${2:-10}; clients=${3:-2}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

on() { psql -X -q -v ON_ERROR_STOP=1 -d "$1" "${@:2}"; }
on postgres -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" -c "CREATE DATABASE $db"
while read -r _ f; do
  on "$db" -1 -f "src/main/resources/db/migration/$f" # one transaction each, as Flyway applies them
done < <(ls src/main/resources/db/migration | sed -E 's/^V([0-9_]+)__.*/\1 &/' \
         | awk '{k = $1; gsub("_", ".", k); print k, $2}' | sort -V)
on "$db" -c "CREATE TABLE eq_none (LIKE event_queue INCLUDING ALL)" \
    -c "CREATE TABLE pe_none (LIKE processed_events INCLUDING ALL)" \
    -c "CREATE TABLE eq_cte (LIKE event_queue INCLUDING ALL)" \
    -c "CREATE TABLE pe_cte (LIKE processed_events INCLUDING ALL)" \
    -c "CREATE TABLE qd_cte (LIKE queue_depth INCLUDING ALL)"

for shape in one ten; do
  src=bench/commit-ceiling.sql
  tenant="'ceiling-' || :t"
  [ "$shape" = ten ] && tenant="'ceiling-' || (g % 10)"
  body() { sed -e "s/'ceiling-' || :t/$tenant/" -e "s/bench_ceiling_queue/$1/" -e "s/bench_ceiling_dedupe/$2/" "$src"; }
  body eq_none pe_none >"$work/none.sql"
  body event_queue processed_events >"$work/trigger.sql"
  # The CTE variant: the queue insert becomes a CTE whose rows the counter upsert and the result both read.
  body eq_cte pe_cte | sed -e 's/^)$/), queued AS (/' -e '$ s/;$//' >"$work/cte.sql"
  cat >>"$work/cte.sql" <<'SQL'
), counted AS (
    INSERT INTO qd_cte AS q (tenant_id, shard, events)
    SELECT tenant_id, pg_backend_pid(), count(*) FROM queued GROUP BY tenant_id ORDER BY tenant_id
    ON CONFLICT (tenant_id, shard) DO UPDATE SET events = q.events + excluded.events
)
SELECT tenant_id, event_id FROM queued;
SQL
  for r in $(seq 1 "$runs"); do
    on "$db" -c "TRUNCATE event_queue, processed_events, eq_none, pe_none, eq_cte, pe_cte, qd_cte" -c CHECKPOINT
    pgbench -n -M prepared -c "$clients" -j "$clients" -T "$seconds" -f "$work/none.sql@1" -f "$work/trigger.sql@1" \
            -f "$work/cte.sql@1" "$db" 2>&1 | awk -v r="$r" -v shape="$shape" -v t="$(date -u +%H:%M:%S)" '
      /^tps/ {tps = $3}
      /SQL script 1/ {s = 1} /SQL script 2/ {s = 2} /SQL script 3/ {s = 3}
      /latency average/ && s {lat[s] = $5}
      END {printf "%s %s tenant(s) per commit, run %d: %.0f tps; latency none %.3f ms, trigger %.3f (x%.3f), cte %.3f (x%.3f)\n",
                  t, shape, r, tps, lat[1], lat[2], lat[2] / lat[1], lat[3], lat[3] / lat[1]}'
  done
done
on postgres -c "DROP DATABASE $db WITH (FORCE)"
