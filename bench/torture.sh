#!/usr/bin/env bash
# The torture suite in one command (issue 14; docs/torture.md): steady signed load against the packaged service
# while faults come one after another (kill -9 and restart; PostgreSQL unreachable; a real PostgreSQL restart; Redis
# unreachable; the origin refusing connections, then answering 503, for minutes; a slow origin; a 422-poison and a
# 500-poison event; SIGTERM under load and restart), then the checks and one table (TortureIT).
#
# usage: bench/torture.sh [--ci]
#   (default)  the full run, about 12 minutes, on a throwaway PostgreSQL cluster of its own (initdb in a temporary
#              folder, removed at the end), so that PostgreSQL can really be restarted under load
#   --ci       the size `mvn -B verify` runs (about 1.5 minutes) on <test database>_torture; a proxy cut stands in for the
#              restart of the shared PostgreSQL
# Settings (environment): every TORTURE_* of docs/torture.md (e.g. TORTURE_ORIGIN_REFUSING=5m), TORTURE_PG_PORT
# (55433: the throwaway cluster), BUFFER_TEST_DATABASE (--ci: <its value>_torture, made afresh).
# Needs Java 17+, Maven and PostgreSQL's server binaries (/usr/lib/postgresql/*/bin); Redis on 127.0.0.1:6379. The
# table is printed and left in target/torture/summary.md beside the service's logs. Exit status 0 only when every
# check passed. Local only: everything listens on and talks to 127.0.0.1, and every process it starts is stopped.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

usage() { sed -n '7,16p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
mode=full
case "${1:-}" in
  "") ;;
  --ci) mode=ci;;
  -h|--help) usage;;
  *) echo "unknown argument $1" >&2; usage;;
esac

# TortureIT alone: the package is built (the service under test is the packaged jar), no other test runs.
maven=(mvn -B verify -Dit.test=TortureIT -Dtest=NoUnitTests -Dsurefire.failIfNoSpecifiedTests=false)

run_suite() {
  local status=0
  "${maven[@]}" || status=$?
  [ -f target/torture/summary.md ] && cat target/torture/summary.md
  return "$status"
}

if [ "$mode" = ci ]; then
  TORTURE_MODE=ci run_suite
  exit $?
fi

pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -x "$pg_bin/initdb" ] || { echo "bench/torture.sh needs PostgreSQL's server binaries (initdb, pg_ctl)" >&2; exit 2; }
port=${TORTURE_PG_PORT:-55433}
if "$pg_bin/pg_isready" -h 127.0.0.1 -p "$port" -q 2>/dev/null; then
  echo "something already answers on 127.0.0.1:$port: set TORTURE_PG_PORT" >&2
  exit 2
fi

# PostgreSQL refuses to run as root: as root, the cluster belongs to the postgres user.
as_pg=()
cluster=$(mktemp -d /tmp/webhook-buffer-torture-pg.XXXXXX)
if [ "$(id -u)" = 0 ]; then
  as_pg=(runuser -u postgres --)
  chown postgres "$cluster"
fi
pg_ctl=("${as_pg[@]}" "$pg_bin/pg_ctl" -D "$cluster/data" -l "$cluster/postgres.log")
cleanup() {
  "${pg_ctl[@]}" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$cluster"
}
trap cleanup EXIT

echo "throwaway PostgreSQL cluster in $cluster on 127.0.0.1:$port"
"${as_pg[@]}" "$pg_bin/initdb" -D "$cluster/data" -U postgres -A trust -N >"$cluster/initdb.log"
"${pg_ctl[@]}" -o "-p $port -k $cluster -c listen_addresses=127.0.0.1" -w start >/dev/null
"$pg_bin/psql" -h 127.0.0.1 -p "$port" -U postgres -q -c "CREATE DATABASE webhook_buffer_torture"

export TORTURE_MODE=full TORTURE_PG_PORT=$port TORTURE_PG_DATABASE=webhook_buffer_torture
# pg_ctl restart reuses the start options (postmaster.opts): the same port, socket folder and address.
TORTURE_PG_RESTART_COMMAND="${pg_ctl[*]} -m fast -w restart"
export TORTURE_PG_RESTART_COMMAND
run_suite
