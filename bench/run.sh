#!/usr/bin/env bash
# One command for the benchmark: PostgreSQL/Redis (started if down), the packaged buffer on its own database, the
# counting demo origin, signed load from io.webhookbuffer.bench.LoadGenerator, the wait for the drain, the loss
# check, and one summary table with the HTTP and durable-commit ceilings measured in the same run.
#
# usage: bench/run.sh [--scenario steady|ingest-only|backlog|hot-tenant|many-tenants|origin-outage|burst|cold-start|smoke]
#                     [--duration SECONDS] [--warmup SECONDS] [--ceiling-seconds SECONDS] [--no-ceilings]
#                     [--runs N] [--replicas N]
# Settings (environment): BENCH_CONNECTIONS, BENCH_TENANTS, BENCH_RATE (open model, requests/s; default closed loop
# where the scenario allows), BENCH_DUPLICATES, BENCH_BODY_BYTES, BENCH_DATABASE (webhook_buffer_bench, dropped and
# recreated), BENCH_BUFFER_PORT (18080), BENCH_ORIGIN_PORT (19000), BENCH_SERVER_OPTS (-Xmx512m),
# BENCH_SERVER_JAVA (java: the buffer's JVM), BENCH_GENERATOR_OPTS (-Xmx2g -XX:+UseSerialGC), BENCH_PGBENCH_CLIENTS (2),
# BENCH_DRAIN_WAIT (300s), BENCH_WRK (true: the steady scenario's cross-check with wrk), BENCH_OUT
# (bench/results/<time>-<scenario>), BENCH_REPLICAS (1; as --replicas), BENCH_APP (target/local/quarkus-app: the
# buffer's build), BENCH_TOOLS_CLASSPATH (the local build's: where the generator, the origin and the report run
# from), BENCH_STOP_WAIT (30: seconds from SIGTERM to SIGKILL).
# --replicas N (N > 1): N buffers on one database (ports BENCH_BUFFER_PORT+1..N), behind HAProxy on BENCH_BUFFER_PORT
# (round-robin per request, apt-get install haproxy), which starts once every replica is ready.
# Needs Java 17+, psql and pgbench, and wrk for the steady scenario's cross-check (apt-get install wrk); builds the
# local build (target/local/quarkus-app: the service with the tools and the /bench/ceiling route, which the service's
# own artifact does not carry) with Maven if it is missing and BENCH_APP or BENCH_TOOLS_CLASSPATH leaves it in use. A
# buffer's build without the ceiling route (the service's own artifact: BenchSmokeIT) gets no HTTP ceiling, said so.
# Local only: everything on 127.0.0.1, no load elsewhere.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

usage() { sed -n '5,18p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
scenario=steady; duration=""; warmup=""; ceiling_seconds=""; ceilings=true; runs=1; replicas=${BENCH_REPLICAS:-1}
while [ $# -gt 0 ]; do
  case "$1" in
    --scenario) scenario=${2:?}; shift 2;;
    --duration) duration=${2:?}; shift 2;;
    --warmup) warmup=${2:?}; shift 2;;
    --ceiling-seconds) ceiling_seconds=${2:?}; shift 2;;
    --no-ceilings) ceilings=false; shift;;
    --runs) runs=${2:?}; shift 2;;
    --replicas) replicas=${2:?}; shift 2;;
    -h|--help) usage;;
    *) echo "unknown argument $1" >&2; usage;;
  esac
done

# Scenario defaults; each can be overridden by the flags and BENCH_* settings above.
# steady is the production shape: the drain runs beside the ingest (delivery on), the load starts the moment the buffer
# is ready (the generator has warmed itself up inside its own JVM first), and the first 15 s (cold) and the last 15 s
# (warm) are reported apart; then wrk loads the same buffer for 15 s as an independent check of the generator.
# ingest-only is the figure published until 2026-12-01: delivery off while ingest is measured, after a 20 s warm-up.
rate=""; hot_share=""; count=""; burst=""; outage=""; drain_mode=after; live_heap=false; eviction=""; prime=""
windows=""; self_warmup=""; wrk_seconds=""; buffer_env=()
case "$scenario" in
  steady)        tenants=10;     connections=64; duplicates=0.05; d=60; w=0;  c=10; drain_mode=live;
                 windows=cold=0-15,warm=45-60; self_warmup=10; wrk_seconds=15;;
  ingest-only)   tenants=10;     connections=64; duplicates=0.05; d=20; w=20; c=10;;
  backlog)       tenants=10;     connections=64; duplicates=0;    d=0;  w=0;  c=10; count=1000000;;
  hot-tenant)    tenants=1001;   connections=64; duplicates=0;    d=20; w=15; c=10; rate=3000; hot_share=0.8;;
  many-tenants)  tenants=100000; connections=64; duplicates=0;    d=0;  w=0;  c=10; count=300000; live_heap=true; eviction=600s;;
  origin-outage) tenants=10;     connections=64; duplicates=0.05; d=90; w=20; c=10; rate=3000; outage=60; drain_mode=live;;
  burst)         tenants=10;     connections=64; duplicates=0.05; d=30; w=5;  c=10; rate=1500; burst=10;;
  cold-start)    tenants=1000;   connections=64; duplicates=0;    d=20; w=5;  c=10; rate=2000; prime=true;;
  smoke)         tenants=3;      connections=4;  duplicates=0.05; d=3;  w=0;  c=1;  rate=100;
                 # CI runs it: the whole path, a short rehearsal, and no shutdown delay at its two stops (5 s each)
                 buffer_env=(BUFFER_WARMUP_MAX_DURATION=2s QUARKUS_SHUTDOWN_DELAY=0s);;
  *) echo "unknown scenario $scenario" >&2; usage;;
esac
duration=${duration:-$d}; warmup=${warmup:-$w}; ceiling_seconds=${ceiling_seconds:-$c}
tenants=${BENCH_TENANTS:-$tenants}; connections=${BENCH_CONNECTIONS:-$connections}
duplicates=${BENCH_DUPLICATES:-$duplicates}; rate=${BENCH_RATE:-$rate}; body_bytes=${BENCH_BODY_BYTES:-1260}
db=${BENCH_DATABASE:-webhook_buffer_bench}
buffer_port=${BENCH_BUFFER_PORT:-18080}; origin_port=${BENCH_ORIGIN_PORT:-19000}
server_opts=${BENCH_SERVER_OPTS:--Xmx512m}
server_java=${BENCH_SERVER_JAVA:-java}
# The generator is a fresh JVM each run, on the cores the buffer uses. Its C2 compiler works during the warm-up;
# without C2 (-XX:TieredStopAtLevel=1) SHA-256 is not intrinsified and signing alone took a third of the
# generator's CPU: 38 core-µs per request in the measured window against 17-21 with C2 (docs/performance.md).
# One event loop needs no parallel collector.
generator_opts=${BENCH_GENERATOR_OPTS:--Xmx2g -XX:+UseSerialGC}
case "$db" in *[!a-z0-9_]*) echo "BENCH_DATABASE must be [a-z0-9_]" >&2; exit 2;; esac
case "$replicas" in [1-9]) ;; *) echo "--replicas must be 1 to 9" >&2; exit 2;; esac

# The local build: the same service code as target/quarkus-app, plus src/tools (this generator, the demo origin, the
# report and the ceiling route) and src/local (inactive here: the buffer runs in the prod profile).
local_build=target/local/quarkus-app
# The tools' class path: the local build's unless BENCH_TOOLS_CLASSPATH names another (the tests' class path, which
# holds src/tools too: BenchSmokeIT).
cp=${BENCH_TOOLS_CLASSPATH:-"$local_build/app/*:$local_build/lib/main/*"}
# The buffer's build: the local build unless BENCH_APP names another (an aot-jar trained for the JDK 25 AOT cache,
# docs/performance.md "Cold start"; the service's own artifact, target/quarkus-app: BenchSmokeIT).
app=${BENCH_APP:-$local_build}
# The buffer runs in the prod profile, which refuses a control secret under 32 bytes and every published demo
# secret: fresh random ones each run (the tenants' webhook secret is a tenant's, not a setting).
control_secret=$(openssl rand -hex 32)
webhook_secret=bench-webhook-secret
origin_token=$(openssl rand -hex 32)
signing_secret=$(openssl rand -hex 32)
secrets_keys=bench:$(openssl rand -base64 32) # seals the tenants' secrets in the bench database (recreated each run)
export PGHOST=${PGHOST:-127.0.0.1} PGPORT=${PGPORT:-5432} PGUSER=${PGUSER:-postgres}

for tool in java psql pgbench curl openssl; do
  command -v "$tool" >/dev/null || { echo "bench/run.sh needs $tool" >&2; exit 2; }
done
use_wrk=false
if [ -n "$wrk_seconds" ] && [ "${BENCH_WRK:-true}" = true ]; then
  command -v wrk >/dev/null || { echo "the $scenario scenario cross-checks with wrk: apt-get install wrk, or BENCH_WRK=false" >&2; exit 2; }
  use_wrk=true
fi
if [ "$replicas" -gt 1 ]; then
  command -v haproxy >/dev/null || { echo "--replicas $replicas runs the replicas behind HAProxy: apt-get install haproxy" >&2; exit 2; }
fi
if { [ "$app" = "$local_build" ] || [ -z "${BENCH_TOOLS_CLASSPATH:-}" ]; } && [ ! -f "$local_build/quarkus-run.jar" ]; then
  echo "building the local build (mvn -B -Plocal package -Dexec.skip)"
  mvn -B -q -Plocal package -Dexec.skip
fi
if ! pg_isready -h "$PGHOST" -p "$PGPORT" -q 2>/dev/null; then
  echo "starting PostgreSQL"
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql)" main start
fi
if ! redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
  echo "starting Redis"
  redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no
fi

started=()
cleanup() {
  for pid in "${started[@]}"; do
    kill "$pid" 2>/dev/null || true
  done
  for pid in "${started[@]}"; do
    wait "$pid" 2>/dev/null || true
  done
}
trap cleanup EXIT

wait_for() { # URL SECONDS
  local i
  for i in $(seq 1 $(( $2 * 4 ))); do
    curl -sf -o /dev/null "$1" && return 0
    sleep 0.25
  done
  echo "nothing answered at $1 within $2 s" >&2
  return 1
}

replica_ports=("$buffer_port") # where each replica listens: the buffer's port itself when there is one
if [ "$replicas" -gt 1 ]; then
  replica_ports=(); for i in $(seq 1 "$replicas"); do replica_ports+=($(( buffer_port + i ))); done
fi
for port in "$buffer_port" "$origin_port" "${replica_ports[@]}"; do
  if curl -s -o /dev/null --max-time 2 "http://127.0.0.1:$port/"; then
    echo "something already answers on port $port: stop it or set BENCH_BUFFER_PORT / BENCH_ORIGIN_PORT" >&2
    exit 2
  fi
done

start_origin() {
  java -Xmx1g -cp "$cp" io.webhookbuffer.demo.DemoOrigin --port "$origin_port" --token "$origin_token" \
       --signing-secret "$signing_secret" --quiet true >"$out/origin.log" 2>&1 &
  origin_pid=$!; started+=("$origin_pid")
  wait_for "http://127.0.0.1:$origin_port/stats" 30
}

start_buffer() { # NAME DELIVERY_ENABLED [extra VAR=value ...]: every replica, each waited for, then the balancer
  local name=$1 delivery=$2 i log; shift 2
  buffer_pids=()
  date +%s%3N >"$out/buffer-$name-started-at"
  for i in "${!replica_ports[@]}"; do
    log=$out/buffer-$name.log; [ "$replicas" -gt 1 ] && log=$out/buffer-$name-$(( i + 1 )).log
    env QUARKUS_DATASOURCE_REACTIVE_URL="postgresql://$PGHOST:$PGPORT/$db" \
        QUARKUS_DATASOURCE_JDBC_URL="jdbc:postgresql://$PGHOST:$PGPORT/$db" QUARKUS_DATASOURCE_USERNAME="$PGUSER" \
        QUARKUS_REDIS_HOSTS=redis://127.0.0.1:6379 BUFFER_INGRESS_PORT="${replica_ports[$i]}" \
        BUFFER_CONTROL_SECRET="$control_secret" BUFFER_ORIGIN_BASE_URL="http://127.0.0.1:$origin_port" \
        BUFFER_ORIGIN_ALLOWED_PRIVATE_NETWORKS=127.0.0.1/32 \
        BUFFER_ORIGIN_TOKEN="$origin_token" BUFFER_DELIVERY_SIGNING_SECRET="$signing_secret" \
        BUFFER_DELIVERY_ENABLED="$delivery" BUFFER_BENCH_CEILING_ENDPOINT=true BUFFER_SECRETS_KEYS="$secrets_keys" \
        "${buffer_env[@]}" "$@" "$server_java" $server_opts -jar "$app/quarkus-run.jar" >"$log" 2>&1 &
    buffer_pids+=($!); started+=($!)
  done
  buffer_pid=${buffer_pids[0]}
  for i in "${!replica_ports[@]}"; do
    wait_for "http://127.0.0.1:${replica_ports[$i]}/q/health/ready" 120
  done
  if [ "$replicas" -gt 1 ] && [ -z "${balancer_pid:-}" ]; then start_balancer; fi
}

# start_balancer: HAProxy in HTTP mode on the buffer's port, round-robin per request over the replicas, keep-alive to
# both sides (a connection per request would cost the balancer more than the buffer); no health checks, since it
# starts when every replica is ready and the replicas stay up for the run.
start_balancer() {
  { printf 'global\n  maxconn 8192\n  nbthread 1\n'
    printf 'defaults\n  mode http\n  timeout connect 5s\n  timeout client 120s\n  timeout server 120s\n'
    printf '  option http-keep-alive\n  http-reuse always\n'
    printf 'frontend edge\n  bind 127.0.0.1:%s\n  default_backend replicas\n' "$buffer_port"
    printf 'backend replicas\n  balance roundrobin\n'
    local i; for i in "${!replica_ports[@]}"; do printf '  server r%s 127.0.0.1:%s\n' "$(( i + 1 ))" "${replica_ports[$i]}"; done
  } >"$out/haproxy.cfg"
  haproxy -db -f "$out/haproxy.cfg" >"$out/haproxy.log" 2>&1 &
  balancer_pid=$!; started+=("$balancer_pid")
  wait_for "http://127.0.0.1:$buffer_port/q/health/ready" 30
}

stop_buffer() { # SIGTERM (graceful), then SIGKILL after BENCH_STOP_WAIT: a JVM out of memory may never finish
  local pid i
  for pid in "${buffer_pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${buffer_pids[@]}"; do
    for i in $(seq 1 $(( ${BENCH_STOP_WAIT:-30} * 2 ))); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.5
    done
    kill -9 "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
}

generate() { # LABEL [LoadGenerator options ...]
  local label=$1; shift
  java $generator_opts -cp "$cp" io.webhookbuffer.bench.LoadGenerator --url "http://127.0.0.1:$buffer_port" \
       --tenants "$tenants" --webhook-secret "$webhook_secret" --body-bytes "$body_bytes" \
       --label "$label" --result-out "$out/$label.json" --timeline "$out/$label-timeline.tsv" "$@" \
       | tee "$out/$label.txt"
}

load_options() { # the scenario's load, as LoadGenerator options
  local o=(--connections "$connections" --duplicates "$duplicates" --warmup "${warmup}s")
  if [ -n "$count" ]; then o+=(--count "$count"); else o+=(--duration "${duration}s"); fi
  if [ -n "$rate" ]; then o+=(--rate "$rate"); fi
  # cold-start: the warm-up goes to the ceiling endpoint, so the generator is compiled and the ingest path is not.
  if [ -n "$prime" ]; then o+=(--warmup-path '/bench/ceiling?tenant='); fi
  if [ -n "$burst" ]; then o+=(--burst-rate "$(( rate * burst ))" --burst-at 10s --burst-for 10s); fi
  if [ -n "$windows" ]; then o+=(--windows "$windows"); fi
  printf '%s\n' "${o[@]}"
}

# wrk LABEL PATH SECONDS: the independent generator (bench/ingest.lua: the same tenants, body size, signature scheme
# and duplicate share; 2 threads, the same connections), its output in $out/LABEL.txt.
wrk_run() {
  local label=$1 path=$2 seconds=$3 body
  body=$(printf '{"type":"invoice.paid","data":{"object":{"id":"in_bench","lines":"%s"}}}' \
         "$(head -c $(( body_bytes > 70 ? body_bytes - 70 : 0 )) /dev/zero | tr '\0' 'x')")
  ( cd bench && BENCH_TENANTS=$tenants BENCH_TENANT_PREFIX=bench BENCH_RUN="$label$(date +%s)" BENCH_PATH="$path" \
      BENCH_DUPLICATES="$duplicates" BENCH_BODY="$body" \
      BENCH_SIGNATURE=$(printf '%s' "$body" | openssl dgst -sha256 -hmac "$webhook_secret" -hex | sed 's/^.* //') \
      wrk -t2 -c"$connections" -d"${seconds}s" --latency -s ingest.lua "http://127.0.0.1:$buffer_port" ) \
      >"$out/$label.txt" 2>&1
  grep -E '^(requests|ack latency p99:)' "$out/$label.txt" | sed 's/^/   /'
}

# origin_sampler FILE: once a second until killed, the origin's distinct events and the buffer's group-commit
# counters (commits, events carried, seconds spent): epoch ms, distinct, commits, events, seconds.
origin_sampler() {
  local metrics
  set +e +o pipefail # a sample the buffer or the origin does not answer (starting, busy) is left blank, not fatal
  while true; do
    metrics=$(for port in "${replica_ports[@]}"; do curl -s --max-time 1 "http://127.0.0.1:$port/q/metrics"; done | awk '
      $1 == "buffer_queue_commits_total" { c += $2 } $1 == "buffer_queue_committed_events_total" { e += $2 }
      $1 == "buffer_queue_commit_seconds_total" { s += $2 } END { printf "%s\t%s\t%s", c, e, s }')
    printf '%s\t%s\t%s\n' "$(date +%s%3N)" "$(curl -s --max-time 1 "http://127.0.0.1:$origin_port/stats" \
      | sed -n 's/.*"distinctEvents":\([0-9]*\).*/\1/p')" "$metrics" >>"$1"
    sleep 1
  done
}

# cpu_sampler FILE: once a second, the CPU time (clock ticks) the machine spent idle and what the
# buffer, the generator, the origin and PostgreSQL (all its processes) used, to say where a window's time went.
cpu_sampler() {
  local file=$1 java_generator=""
  set +e +o pipefail # a process that has gone counts 0
  printf 'epoch_ms\tidle\tbuffer\tgenerator\torigin\tpostgres\tbalancer\n' >"$file"
  ticks() { # PID...: utime + stime of each, summed (its threads included)
    local sum=0 pid
    for pid in "$@"; do
      [ -r "/proc/$pid/stat" ] && sum=$(( sum + $(awk '{print $14 + $15}' "/proc/$pid/stat" 2>/dev/null || echo 0) ))
    done
    echo "$sum"
  }
  while true; do
    # the ingest generator's JVM, found by its label (the pid the script has is its subshell's)
    [ -n "${java_generator:-}" ] || java_generator=$(pgrep -n -f 'bench.LoadGenerator .*--label ingest')
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(date +%s%3N)" "$(awk '/^cpu / {print $5 + $6}' /proc/stat)" \
      "$(ticks "${buffer_pids[@]}")" "$(ticks ${java_generator:-})" "$(ticks "$origin_pid")" \
      "$(ticks $(pgrep -u postgres))" "$(ticks ${balancer_pid:-})" >>"$file"
    sleep 1
  done
}

# ceilings_run: the HTTP ceiling, when the buffer's build serves the ceiling route (http_ceiling=true then). A build
# without it (the service's own artifact) answers 404 there: a ceiling measured from those answers would be no
# ceiling, so none is reported.
ceilings_run() {
  local answer
  answer=$(curl -s -o /dev/null -w '%{http_code}' -X POST -H 'content-type: application/json' -d '{}' \
           "http://127.0.0.1:$buffer_port/bench/ceiling?tenant=probe")
  http_ceiling=false
  if [ "$answer" != 202 ]; then
    echo "== HTTP ceiling: not measured: POST /bench/ceiling answered $answer (the buffer's build, $app, has no ceiling route)"
    return 0
  fi
  http_ceiling=true
  echo "== HTTP ceiling: POST /bench/ceiling (202, no work), ${ceiling_seconds}s"
  generate http-ceiling --path '/bench/ceiling?tenant=' --connections "$connections" \
           --warmup "$(( ceiling_seconds / 2 ))s" --duration "${ceiling_seconds}s" >/dev/null
  tail -n +2 "$out/http-ceiling.txt" | head -2
  if $use_wrk; then
    echo "== HTTP ceiling with wrk, ${ceiling_seconds}s"
    wrk_run wrk-http-ceiling '/bench/ceiling?tenant=' "$ceiling_seconds"
  fi
}

# The durable-commit ceiling runs first, on the fresh database before anything else starts: run after the load, it
# shared the machine with autovacuum and the checkpoint the load had caused, and two consecutive runs on 2026-12-01
# gave 48k and 93k rows/s.
commit_ceiling_run() {
  echo "== durable-commit ceiling: pgbench, 50-row group-commit statement, ${ceiling_seconds}s"
  # The two tables as the migrations make them (columns, keys, indexes), in a schema of their own that is dropped
  # afterwards, so the buffer's own migrations later find an empty database.
  psql -q -v ON_ERROR_STOP=1 -d "$db" -c "SET client_min_messages = warning" -c "DROP SCHEMA IF EXISTS ceiling CASCADE" \
       -c "CREATE SCHEMA ceiling"
  local migration
  for migration in $(ls src/main/resources/db/migration/V*__*.sql | sed 's/.*\/V\([0-9_]*\)__.*/\1 &/' \
                     | awk '{ v = $1; gsub("_", ".", v); print v, $2 }' | sort -V | awk '{ print $2 }'); do
    PGOPTIONS=--search_path=ceiling psql -q -1 -v ON_ERROR_STOP=1 -d "$db" -f "$migration" >/dev/null
  done
  psql -q -v ON_ERROR_STOP=1 -d "$db" -c "DROP TABLE IF EXISTS bench_ceiling_queue, bench_ceiling_dedupe" \
       -c "CREATE TABLE bench_ceiling_queue (LIKE ceiling.event_queue INCLUDING ALL)" \
       -c "CREATE TABLE bench_ceiling_dedupe (LIKE ceiling.processed_events INCLUDING ALL)" \
       -c "SET client_min_messages = warning" -c "DROP SCHEMA ceiling CASCADE"
  # LIKE copies no trigger, and the real statement pays the queue_depth counters' (V12): the copy gets the same
  # table, functions and triggers, made from the migration's own text with the names changed.
  sed -e 's/queue_depth/bench_ceiling_depth/g' -e 's/queue_tenant_fixed/bench_ceiling_tenant_fixed/g' \
      -e 's/event_queue/bench_ceiling_queue/g' src/main/resources/db/migration/V12__queue_depth.sql \
      | psql -q -v ON_ERROR_STOP=1 -d "$db"
  pgbench -n -M prepared -c "${BENCH_PGBENCH_CLIENTS:-2}" -j "${BENCH_PGBENCH_CLIENTS:-2}" -T "$ceiling_seconds" \
          -f bench/commit-ceiling.sql "$db" >"$out/pgbench.txt" 2>&1
  grep -E '^(tps|latency average)' "$out/pgbench.txt" || true
  drop_ceiling_tables
}

drop_ceiling_tables() { # the ceiling's copies of the queue tables, with their counters and trigger functions
  psql -q -v ON_ERROR_STOP=1 -d "$db" \
       -c "DROP TABLE IF EXISTS bench_ceiling_queue, bench_ceiling_dedupe, bench_ceiling_depth" \
       -c "DROP FUNCTION IF EXISTS bench_ceiling_depth_changed(), bench_ceiling_depth_truncated(),
               bench_ceiling_tenant_fixed()"
}

live_heap_mb() { # PID: heap used after a full GC, in MB
  jcmd "$1" GC.run >/dev/null
  jcmd "$1" GC.heap_info | awk '/garbage-first heap|def new generation|PSYoungGen|total.*used/ { for (i = 1; i <= NF; i++) if ($i == "used") { v = $(i + 1); sub(/K,?/, "", v); print int(v / 1024); exit } }'
}

run_once() { # RUN_NUMBER
  out=$BENCH_OUT
  if [ "$runs" -gt 1 ]; then out="$out/run-$1"; fi
  mkdir -p "$out"
  echo "== run $1 of $runs: scenario $scenario, results in $out"
  psql -q -v ON_ERROR_STOP=1 -d postgres -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" -c "CREATE DATABASE $db"
  if $ceilings; then
    commit_ceiling_run
  fi
  start_origin
  local mode=false extra=() report=()
  [ "$drain_mode" = live ] && mode=true
  mapfile -t load < <(load_options)
  accepted=()
  local generator_pid="" sampler_pid="" cpu_pid=""
  if [ -n "$self_warmup" ]; then
    # The generator warms itself up in its own JVM first; the buffer starts only then, and the generator provisions
    # and loads the moment the buffer answers ready, so the cold window is the buffer's first seconds, not the
    # generator's.
    echo "== ingest (the generator warms up ${self_warmup}s on its own, then waits for the buffer): ${load[*]}"
    rm -f "$out/warmed"
    generate ingest "${load[@]}" --accepted-out "$out/accepted-ingest.txt" --self-warmup "${self_warmup}s" \
             --warmed-file "$out/warmed" --await-ready 180s --provision true --control-secret "$control_secret" &
    generator_pid=$!; started+=("$generator_pid")
    local i
    for i in $(seq 1 $(( (self_warmup + 60) * 10 ))); do
      [ -f "$out/warmed" ] && break
      kill -0 "$generator_pid" 2>/dev/null || { echo "the generator stopped before its warm-up ended" >&2; return 1; }
      sleep 0.1
    done
    origin_sampler "$out/origin-samples.tsv" & sampler_pid=$!; started+=("$sampler_pid")
  fi
  start_buffer ingest "$mode" "${extra[@]}"
  if [ -n "$generator_pid" ]; then
    cpu_sampler "$out/cpu-samples.tsv" & cpu_pid=$!; started+=("$cpu_pid")
  fi
  if [ -z "$generator_pid" ]; then
    generate provision --provision only --control-secret "$control_secret"
  fi

  if [ "$scenario" = hot-tenant ]; then
    echo "== baseline: the 1,000 quiet tenants alone at $(awk -v r="$rate" -v h="$hot_share" 'BEGIN{print r*(1-h)}')/s"
    generate baseline --tenant-from 1 --connections "$connections" --warmup "${warmup}s" --duration "${duration}s" \
             --rate "$(awk -v r="$rate" -v h="$hot_share" 'BEGIN{print r*(1-h)}')" --accepted-out "$out/accepted-baseline.txt"
    accepted+=("$out/accepted-baseline.txt"); report+=(--baseline "$out/baseline.json")
    load+=(--hot-share "$hot_share")
  fi

  local drain_start
  if [ -n "$outage" ]; then
    local outage_pid
    # 15 s into the measured window (after the warm-up, which also warms the delivery path)
    ( sleep $(( 15 + warmup )); curl -s -X POST "http://127.0.0.1:$origin_port/mode?status=503" >/dev/null
      echo "   origin down (503) for ${outage}s"; sleep "$outage"
      curl -s -X POST "http://127.0.0.1:$origin_port/mode?status=200" >/dev/null
      date +%s%3N >"$out/recovered-at"
      curl -s "http://127.0.0.1:$origin_port/stats" | sed 's/.*"distinctEvents":\([0-9]*\).*/\1/' >"$out/recovered-count"
      echo "   origin back" ) &
    outage_pid=$!; started+=("$outage_pid")
  fi
  if [ -n "$generator_pid" ]; then
    wait "$generator_pid"
  else
    echo "== ingest: ${load[*]}"
    generate ingest "${load[@]}" --accepted-out "$out/accepted-ingest.txt"
  fi
  accepted+=("$out/accepted-ingest.txt")
  if $use_wrk; then
    echo "== cross-check: wrk against the same buffer for ${wrk_seconds}s, the drain still running"
    wrk_run wrk-ingest /webhook/ "$wrk_seconds"
    report+=(--wrk "$out/wrk-ingest.txt")
  fi
  if [ -n "$sampler_pid" ]; then
    kill "$sampler_pid" "$cpu_pid" 2>/dev/null || true
    report+=(--origin-samples "$out/origin-samples.tsv" --cpu-samples "$out/cpu-samples.tsv")
  fi
  local rss_kb=0 pid kb # the largest replica's peak
  for pid in "${buffer_pids[@]}"; do
    kb=$(awk '/VmHWM/ {print $2}' "/proc/$pid/status"); [ "$kb" -gt "$rss_kb" ] && rss_kb=$kb
  done
  report+=(--rss-kb "$rss_kb")
  if $live_heap; then
    # Idle actors go after $eviction (TenantActors.IDLE_EVICTION, 10 min, a constant since 2026-12-06: the buffer
    # refuses to start with BUFFER_ACTOR_IDLE_EVICTION set); cached tenants 60 s (TenantDirectory.CACHE_TTL) after
    # their last load.
    local settle=$(( ${eviction%s} > 60 ? ${eviction%s} + 10 : 70 ))
    echo "== waiting ${settle}s for idle actors and cached tenants to be evicted, then a full GC"
    sleep "$settle"
    report+=(--live-heap-mb "$(live_heap_mb "$buffer_pid")")
  fi
  if $ceilings; then
    ceilings_run
    report+=(--pgbench "$out/pgbench.txt")
    if $http_ceiling; then
      report+=(--http-ceiling "$out/http-ceiling.json")
      if $use_wrk; then report+=(--wrk-ceiling "$out/wrk-http-ceiling.txt"); fi
    fi
  fi
  if [ "$drain_mode" = after ]; then
    stop_buffer
    echo "== drain: the buffer restarted with delivery on"
    drain_start=$(date +%s%3N)
    start_buffer drain true
  else
    if [ -n "$outage" ]; then wait "$outage_pid" || true; fi
    drain_start=$(cat "$out/recovered-at" 2>/dev/null || date +%s%3N)
    report+=(--drain-start-count "$(cat "$out/recovered-count" 2>/dev/null || echo 0)")
  fi
  local status=0 files label=$scenario
  [ "$replicas" -gt 1 ] && label="$scenario, $replicas replicas behind HAProxy (round-robin)"
  files=$(IFS=,; echo "${accepted[*]}")
  java -cp "$cp" io.webhookbuffer.bench.BenchReport --origin "http://127.0.0.1:$origin_port" \
       --accepted "$files" --ingest "$out/ingest.json" --scenario "$label" --drain-start-ms "$drain_start" \
       --wait "${BENCH_DRAIN_WAIT:-300s}" --summary-out "$out/summary.md" "${report[@]}" || status=$?
  local ready_at
  ready_at=$(sed -n 's/.*"readyAtEpochMs" *: *\([0-9]*\).*/\1/p' "$out/ingest.json")
  if [ -n "$ready_at" ] && [ "$ready_at" != 0 ]; then # steady: from the buffer's process start to the ready it saw
    echo "| start to readiness s | $(awk -v r="$ready_at" -v s="$(cat "$out/buffer-ingest-started-at")" \
      'BEGIN { printf "%.1f", (r - s) / 1000 }') |" | tee -a "$out/summary.md"
  fi
  if [ "$replicas" -gt 1 ] && [ "$drain_mode" = live ]; then # how evenly the balancer spread the events
    local port stored=()
    for port in "${replica_ports[@]}"; do
      stored+=("$(curl -s "http://127.0.0.1:$port/q/metrics" | awk '$1 ~ /^buffer_ingest_total\{outcome="buffered"/ { print $2 + 0 }')")
    done
    echo "events buffered per replica: ${stored[*]}" | tee -a "$out/summary.md"
  fi
  stop_buffer
  if [ -n "${balancer_pid:-}" ]; then kill "$balancer_pid" 2>/dev/null || true; wait "$balancer_pid" 2>/dev/null || true; fi
  balancer_pid=""
  kill "$origin_pid" 2>/dev/null || true; wait "$origin_pid" 2>/dev/null || true
  return $status
}

base=${BENCH_OUT:-bench/results/$(date -u +%Y%m%dT%H%M%SZ)-$scenario}
summaries=()
for run in $(seq 1 "$runs"); do
  BENCH_OUT=$base run_once "$run" # not in an || list: set -e stops the script at the first failing step
  summaries+=("$out/summary.md")
done
if [ "$runs" -gt 1 ]; then
  echo; echo "== median of $runs runs (range in brackets)"
  java -cp "$cp" io.webhookbuffer.bench.BenchReport --median "$(IFS=,; echo "${summaries[*]}")" | tee "$base/summary.md"
fi
