#!/usr/bin/env bash
# Closed-loop ingest load against a running buffer: provisions BENCH_TENANTS tenants with a signed command,
# then runs wrk with signed, unique events and prints throughput, ack latency and the group-commit size.
# Usage: BUFFER_URL=http://127.0.0.1:8080 CONTROL_SECRET=... bench/wrk-ingest.sh [connections] [seconds]
# Needs wrk (apt-get install wrk), openssl and curl. Sends only to BUFFER_URL, which must be on this machine.
set -euo pipefail
cd "$(dirname "$0")"
url=${BUFFER_URL:-http://127.0.0.1:8080}
case "$url" in http://127.*|http://localhost*|http://\[::1\]*) ;; *) echo "BUFFER_URL must be a loopback address" >&2; exit 2;; esac
secret=${CONTROL_SECRET:?set CONTROL_SECRET to the buffer.control.secret of the running buffer}
connections=${1:-64}
seconds=${2:-30}
export BENCH_TENANTS=${BENCH_TENANTS:-10}
export BENCH_TENANT_PREFIX=${BENCH_TENANT_PREFIX:-bench}
webhook_secret=bench-webhook-secret
export BENCH_RUN=run$(date +%s)

sign_command() { # method target ts nonce body -> the v2 x-signature (docs/control-plane.md, "Signed commands")
  printf 'webhook-buffer-v2\ncommand\n%s\n%s\n%s\n%s\n%s' "$1" "$2" "$3" "$4" "$5" \
    | openssl dgst -sha256 -hmac "$secret" -binary | openssl base64 -A | tr '+/' '-_' | tr -d '=' | sed 's/^/v2=/'
}
for i in $(seq 0 $(( BENCH_TENANTS - 1 ))); do
  body="{\"secrets\":[\"$webhook_secret\"],\"rateLimit\":1000000,\"rateWindowSeconds\":1}"
  ts=$(date +%s); nonce=$(openssl rand -base64 18 | tr '+/' '-_' | tr -d '=')
  target="/control/tenants/$BENCH_TENANT_PREFIX-$i"
  curl -sf -o /dev/null -X PUT "$url$target" -H 'content-type: application/json' \
    -H "x-timestamp: $ts" -H "x-nonce: $nonce" -H "x-signature: $(sign_command PUT "$target" "$ts" "$nonce" "$body")" \
    -d "$body"
done

# A 1.26 KB JSON body, like a typical provider event.
export BENCH_BODY=$(printf '{"type":"invoice.paid","data":{"object":{"id":"in_bench","lines":"%s"}}}' "$(head -c 1200 /dev/zero | tr '\0' 'x')")
export BENCH_SIGNATURE=$(printf '%s' "$BENCH_BODY" | openssl dgst -sha256 -hmac "$webhook_secret" -hex | sed 's/^.* //')

metric() { curl -s "$url/q/metrics" | awk -v m="$1" '$1 == m {print $2}'; }
commits0=$(metric buffer_queue_commits_total); events0=$(metric buffer_queue_committed_events_total); secs0=$(metric buffer_queue_commit_seconds_total)
wrk -t2 -c"$connections" -d"${seconds}s" --latency -s ingest.lua "$url"
commits1=$(metric buffer_queue_commits_total); events1=$(metric buffer_queue_committed_events_total); secs1=$(metric buffer_queue_commit_seconds_total)
awk -v c0="$commits0" -v c1="$commits1" -v e0="$events0" -v e1="$events1" -v s0="$secs0" -v s1="$secs1" \
  'BEGIN { c = c1 - c0; e = e1 - e0; printf "group commits: %d carrying %d events, mean %.1f events per commit, mean commit %.2f ms\n", c, e, (c > 0 ? e / c : 0), (c > 0 ? (s1 - s0) * 1000 / c : 0) }'
