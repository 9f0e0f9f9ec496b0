#!/usr/bin/env bash
# Trains the JDK AOT cache (JEP 483/514/515: classes loaded and linked, method profiles) of an aot-jar build of the
# service: starts it with -XX:AOTCacheOutput against a scratch database, loads it as production does (signed
# webhooks from 10 tenants with the drain delivering them to a demo origin, beside refusals: a wrong signature and
# unknown tenants), stops it gracefully, and waits while the JVM writes APP_DIR/app.aot (docs/operations.md
# "The AOT cache"). The rehearsal before readiness is off while training: the cache must not depend on it.
#
# usage: deploy/aot-train.sh APP_DIR [SECONDS]
#   APP_DIR  an aot-jar build (`mvn -B -Paot package`: target/quarkus-app); the cache is written beside quarkus-run.jar
#            and only serves that directory at that path, on the JDK that trained it (same build).
#   SECONDS  how long the load runs (60).
# Settings (environment): JAVA (java; must be 25 or later), AOT_TRAIN_TOOLS (target/local/quarkus-app: the local
# build, `mvn -B -Plocal package -Dexec.skip`, for the load generator and the demo origin), AOT_TRAIN_DATABASE
# (webhook_buffer_aot_train: dropped and recreated, dropped at the end), AOT_TRAIN_PORT / AOT_TRAIN_ORIGIN_PORT
# (18380 / 19380), AOT_TRAIN_OPTS (-Xmx512m: use the heap and collector options the service runs with), PGHOST, PGPORT,
# PGUSER (127.0.0.1, 5432, postgres), PGPASSWORD (none; passed to the service too), AOT_TRAIN_REDIS
# (redis://127.0.0.1:6379). Local only: everything on 127.0.0.1. The tenants are aottrain-0..9, apart from the
# benchmark's in a shared Redis.
set -euo pipefail
app=${1:?usage: deploy/aot-train.sh APP_DIR [SECONDS]}
seconds=${2:-60}
java=${JAVA:-java}
tools=${AOT_TRAIN_TOOLS:-target/local/quarkus-app}
db=${AOT_TRAIN_DATABASE:-webhook_buffer_aot_train}
port=${AOT_TRAIN_PORT:-18380}
origin_port=${AOT_TRAIN_ORIGIN_PORT:-19380}
opts=${AOT_TRAIN_OPTS:--Xmx512m}
export PGHOST=${PGHOST:-127.0.0.1} PGPORT=${PGPORT:-5432} PGUSER=${PGUSER:-postgres}
case "$db" in *[!a-z0-9_]*) echo "AOT_TRAIN_DATABASE must be [a-z0-9_]" >&2; exit 2;; esac
version=$("$java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p')
[ "${version:-0}" -ge 25 ] || { echo "$java is Java $version: the AOT cache with method profiles needs 25" >&2; exit 2; }
[ -f "$app/quarkus-run.jar" ] || { echo "no $app/quarkus-run.jar: mvn -B -Paot package" >&2; exit 2; }
[ -f "$tools/quarkus-run.jar" ] || { echo "no local build in $tools: mvn -B -Plocal package -Dexec.skip" >&2; exit 2; }

cp="$tools/app/*:$tools/lib/main/*"
control_secret=$(openssl rand -hex 32); origin_token=$(openssl rand -hex 32); signing_secret=$(openssl rand -hex 32)
webhook_secret=aot-train-webhook-secret
log=$(mktemp -d)/aot-train
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  psql -q -d postgres -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" || true
}
trap cleanup EXIT
wait_for() { # URL SECONDS
  local i
  for i in $(seq 1 $(( $2 * 4 ))); do curl -sf -o /dev/null "$1" && return 0; sleep 0.25; done
  echo "nothing answered at $1 within $2 s" >&2; return 1
}
started=$(date +%s)
psql -q -v ON_ERROR_STOP=1 -d postgres -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" -c "CREATE DATABASE $db"
"$java" -Xmx256m -cp "$cp" io.webhookbuffer.demo.DemoOrigin --port "$origin_port" --token "$origin_token" \
    --signing-secret "$signing_secret" --quiet true >"$log-origin.log" 2>&1 &
pids+=($!)
wait_for "http://127.0.0.1:$origin_port/stats" 60
rm -f "$app/app.aot"
password=(); [ -n "${PGPASSWORD:-}" ] && password=(QUARKUS_DATASOURCE_PASSWORD="$PGPASSWORD")
# shellcheck disable=SC2086 # opts is a list of JVM options
env QUARKUS_DATASOURCE_REACTIVE_URL="postgresql://$PGHOST:$PGPORT/$db" \
    QUARKUS_DATASOURCE_JDBC_URL="jdbc:postgresql://$PGHOST:$PGPORT/$db" QUARKUS_DATASOURCE_USERNAME="$PGUSER" \
    QUARKUS_REDIS_HOSTS="${AOT_TRAIN_REDIS:-redis://127.0.0.1:6379}" BUFFER_INGRESS_PORT="$port" \
    BUFFER_CONTROL_SECRET="$control_secret" BUFFER_ORIGIN_BASE_URL="http://127.0.0.1:$origin_port" \
    BUFFER_ORIGIN_ALLOWED_PRIVATE_NETWORKS=127.0.0.1/32 BUFFER_ORIGIN_TOKEN="$origin_token" \
    BUFFER_DELIVERY_SIGNING_SECRET="$signing_secret" BUFFER_SECRETS_KEYS="train:$(openssl rand -base64 32)" \
    BUFFER_WARMUP_ENABLED=false "${password[@]}" \
    "$java" $opts -XX:AOTCacheOutput="$app/app.aot" -jar "$app/quarkus-run.jar" >"$log-buffer.log" 2>&1 &
buffer=$!
echo "training: the buffer recording (log $log-buffer.log)"
generate() { # LABEL [options]
  local label=$1; shift
  "$java" -Xmx1g -XX:+UseSerialGC -cp "$cp" io.webhookbuffer.bench.LoadGenerator --url "http://127.0.0.1:$port" \
       --tenants 10 --label "$label" --result-out "$log-$label.json" "$@" >"$log-$label.txt" 2>&1
}
generate signed --tenant-prefix aottrain --webhook-secret "$webhook_secret" --connections 64 --duplicates 0.05 \
         --duration "${seconds}s" \
         --await-ready 300s --provision true --control-secret "$control_secret" &
signed=$!; pids+=("$signed")
wait_for "http://127.0.0.1:$port/q/health/ready" 300
sleep 2 # the tenants provisioned
generate bad-signature --tenant-prefix aottrain --webhook-secret wrong --connections 4 --rate 300 \
         --duration "${seconds}s" & pids+=($!)
generate unknown-tenant --webhook-secret "$webhook_secret" --tenant-prefix aottrain-unknown --connections 4 --rate 300 \
         --duration "${seconds}s" & pids+=($!)
wait "$signed" || { echo "the signed load failed: $log-signed.txt" >&2; exit 1; }
grep -E "requests/s" "$log-signed.txt" | sed 's/^/  /' || true
echo "training: load done after $(( $(date +%s) - started )) s; stopping the buffer, the JVM writes the cache"
kill "$buffer"
wait "$buffer" || true
[ -s "$app/app.aot" ] || { echo "no cache written: $log-buffer.log" >&2; exit 1; }
echo "training: $app/app.aot ($(( $(stat -c %s "$app/app.aot") / 1048576 )) MB) after $(( $(date +%s) - started )) s"
