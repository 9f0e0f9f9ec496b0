#!/usr/bin/env bash
# Builds deploy/Dockerfile and runs the image against the local PostgreSQL and Redis (issue 41): a check that the image
# builds, starts, answers a signed webhook with 202, delivers it to an origin and reports ready and its metrics. It is
# a script, not part of `mvn -B verify`: the first run downloads Debian packages and the Maven dependencies and took
# 12 minutes on 2 cores; later runs reuse the base images, the Maven cache and the image's layers (1-6 minutes).
#
# usage: deploy/image-check.sh
# Needs (as root) podman with crun, debootstrap, curl, openssl, psql and python3; PostgreSQL on 127.0.0.1:5432 (user
# postgres, trust) and Redis on 127.0.0.1:6379. Docker Hub is not needed: the two base images are made here with
# debootstrap from Debian's mirror (Debian's OpenJDK 17) and passed to the Dockerfile's BUILD_IMAGE and RUNTIME_IMAGE.
# Settings (environment): IMAGE_CHECK_CACHE (/var/cache/webhook-buffer-image: the Debian root and the Maven
# repository), IMAGE_CHECK_MIRROR (http://deb.debian.org/debian), IMAGE_CHECK_REBUILD_BASE=1 (remake the bases),
# IMAGE_CHECK_DATABASE (webhook_buffer_image: dropped and recreated), IMAGE_CHECK_PORT / IMAGE_CHECK_MANAGEMENT_PORT
# (28080 / 28081: the container uses the host's network), IMAGE_CHECK_ORIGIN_PORT (28090), IMAGE_CHECK_MEMORY (768m,
# k8s/deployment.yaml's limit). Exit status 0 only when every check passed; the container and the origin are removed
# on exit, the images are kept (podman rmi to remove them).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

cache=${IMAGE_CHECK_CACHE:-/var/cache/webhook-buffer-image}
mirror=${IMAGE_CHECK_MIRROR:-http://deb.debian.org/debian}
db=${IMAGE_CHECK_DATABASE:-webhook_buffer_image}
port=${IMAGE_CHECK_PORT:-28080}
mport=${IMAGE_CHECK_MANAGEMENT_PORT:-28081}
oport=${IMAGE_CHECK_ORIGIN_PORT:-28090}
memory=${IMAGE_CHECK_MEMORY:-768m}
jre_image=localhost/debian-jre:bookworm
build_image=localhost/debian-maven:bookworm
app_image=localhost/webhook-buffer:check
container=webhook-buffer-image-check
tenant=imagecheck
started=$(date +%s)

say() { printf '[%4ss] %s\n' "$(( $(date +%s) - started ))" "$*"; }
fail() { say "FAIL: $*"; exit 1; }

for tool in podman debootstrap curl openssl psql python3; do
  command -v "$tool" >/dev/null || { echo "deploy/image-check.sh needs $tool" >&2; exit 2; }
done
[ "$(id -u)" = 0 ] || { echo "deploy/image-check.sh runs rootful podman and debootstrap: run it as root" >&2; exit 2; }
for p in "$port" "$mport" "$oport"; do
  if curl -s -o /dev/null --max-time 2 "http://127.0.0.1:$p/"; then
    echo "something already answers on port $p: stop it or set IMAGE_CHECK_*PORT" >&2
    exit 2
  fi
done

work=$(mktemp -d /tmp/webhook-buffer-image-check.XXXXXX)
origin_pid=
cleanup() {
  podman rm -f -t 5 "$container" >/dev/null 2>&1 || true
  [ -n "$origin_pid" ] && kill "$origin_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

# Two adaptations to a sandbox like the one this was written on, in a containers.conf of this run only (an explicit
# CONTAINERS_CONF is left alone): without CAP_SYS_RESOURCE, podman's default limits (1048576 open files and
# processes) cannot be set, so the container gets this shell's hard limit on open files and at most 32768 processes
# (what podman's children may still set here); on cgroup v1 with a cgroup v2 hierarchy beside it ("hybrid"), crun
# refuses to create a container and runc is used.
if [ -z "${CONTAINERS_CONF:-}" ]; then
  conf=
  capeff=$(awk '/^CapEff/ { print $2 }' /proc/self/status)
  if (( (16#$capeff >> 24 & 1) == 0 )); then
    nofile=$(ulimit -Hn) nproc=$(ulimit -Hu)
    if [ "$nproc" = unlimited ] || (( nproc > 32768 )); then nproc=32768; fi
    conf+=$'[containers]\n'"default_ulimits = [\"nofile=$nofile:$nofile\", \"nproc=$nproc:$nproc\"]"$'\n'
  fi
  if [ "$(stat -fc %T /sys/fs/cgroup)" = tmpfs ] && [ "$(stat -fc %T /sys/fs/cgroup/unified 2>/dev/null)" = cgroup2fs ]; then
    command -v runc >/dev/null || { echo "cgroups in hybrid mode: crun refuses them, install runc" >&2; exit 2; }
    conf+=$'[engine]\nruntime = "runc"\n'
  fi
  if [ -n "$conf" ]; then
    printf '%s' "$conf" >"$work/containers.conf"
    export CONTAINERS_CONF="$work/containers.conf"
    say "containers.conf for this run: $(tr '\n' ' ' <"$work/containers.conf")"
  fi
fi

# 1. The runtime base: Debian 12 (minbase) with Debian's OpenJDK 17 JRE, made with debootstrap and imported.
if [ "${IMAGE_CHECK_REBUILD_BASE:-}" = 1 ]; then
  podman rmi -f "$build_image" "$jre_image" >/dev/null 2>&1 || true
  rm -rf "$cache/rootfs"
fi
mkdir -p "$cache/m2"
if ! podman image exists "$jre_image"; then
  if [ ! -f "$cache/rootfs/etc/debian_version" ]; then
    say "debootstrap bookworm (minbase, openjdk-17-jre-headless) into $cache/rootfs from $mirror"
    rm -rf "$cache/rootfs.partial"
    nice debootstrap --variant=minbase --include=openjdk-17-jre-headless,ca-certificates bookworm \
        "$cache/rootfs.partial" "$mirror" >"$cache/debootstrap.log" 2>&1 \
      || fail "debootstrap (log: $cache/debootstrap.log)"
    rm -rf "$cache/rootfs.partial/var/cache/apt/archives/"*.deb "$cache/rootfs.partial/var/lib/apt/lists/"*
    mv "$cache/rootfs.partial" "$cache/rootfs"
  fi
  say "importing $cache/rootfs as $jre_image"
  tar -C "$cache/rootfs" --numeric-owner -c . \
    | podman import --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
        --change 'ENV LANG=C.UTF-8' --change 'CMD ["/bin/bash"]' - "$jre_image" >"$work/import.log" 2>&1 \
    || { cat "$work/import.log"; fail "podman import"; }
fi
say "runtime base $jre_image: $(podman run --rm "$jre_image" java -version 2>&1 | head -1)"

# 2. The build base: the same Debian with Debian's JDK 17 and Maven (what maven:3.9-eclipse-temurin-17 gives).
if ! podman image exists "$build_image"; then
  # Maven Central over HTTPS from inside the build: CAs added on this host (/usr/local/share/ca-certificates, e.g. a
  # TLS-inspecting egress proxy's) are added to the build base as well, never to the runtime image.
  mkdir -p "$work/ca"
  cp /usr/local/share/ca-certificates/*.crt "$work/ca/" 2>/dev/null || true
  say "building $build_image (apt-get install openjdk-17-jdk-headless maven; $(ls "$work/ca" | wc -l) local CA(s) added)"
  printf '%s\n' "FROM $jre_image" 'COPY ca/ /usr/local/share/ca-certificates/' \
    'RUN apt-get update && apt-get install -y --no-install-recommends openjdk-17-jdk-headless maven \' \
    ' && update-ca-certificates && rm -rf /var/lib/apt/lists/* /var/cache/apt/archives/*.deb' \
    >"$work/build-base.Containerfile"
  podman build --network host -f "$work/build-base.Containerfile" -t "$build_image" "$work" >"$work/build-base.log" 2>&1 \
    || { tail -30 "$work/build-base.log"; fail "building $build_image"; }
fi
say "build base $build_image: $(podman run --rm "$build_image" mvn -v 2>/dev/null | head -1 | sed 's/\x1b\[[0-9;]*m//g')"

# 3. deploy/Dockerfile itself, both stages, the Maven repository kept in the cache between runs.
say "podman build -f deploy/Dockerfile (BUILD_IMAGE=$build_image, RUNTIME_IMAGE=$jre_image)"
build_start=$(date +%s)
nice podman build --network host --volume "$cache/m2:/root/.m2" \
    --build-arg BUILD_IMAGE="$build_image" --build-arg RUNTIME_IMAGE="$jre_image" \
    -f deploy/Dockerfile -t "$app_image" . >"$work/build.log" 2>&1 \
  || { tail -40 "$work/build.log"; fail "podman build -f deploy/Dockerfile"; }
say "built $app_image in $(( $(date +%s) - build_start )) s, $(podman image inspect --format '{{.Size}}' "$app_image" \
  | awk '{ printf "%.0f MB", $1 / 1e6 }'), user $(podman image inspect --format '{{.Config.User}}' "$app_image")"

# 4. A fresh database, fresh secrets, and an origin that checks the bearer token and the batch signature.
psql -h 127.0.0.1 -U postgres -q -v ON_ERROR_STOP=1 -d postgres \
    -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" -c "CREATE DATABASE $db"
control_secret=$(openssl rand -hex 32)
origin_token=$(openssl rand -hex 32)
signing_secret=$(openssl rand -hex 32)
status_token=$(openssl rand -hex 32)
webhook_secret=whsec_$(openssl rand -hex 16)
cat >"$work/origin.py" <<'PY'
import hashlib, hmac, json, sys, time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

port, token, secret, out = int(sys.argv[1]), sys.argv[2], sys.argv[3].encode(), sys.argv[4]
stats = {"batches": 0, "events": 0, "refused": 0}

class Origin(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def answer(self, status, doc):
        body = json.dumps(doc).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        self.answer(200, stats)

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("content-length", "0")))
        ts = self.headers.get("x-buffer-timestamp", "")
        expected = hmac.new(secret, (ts + ".").encode() + body, hashlib.sha256).hexdigest()
        ok = (self.path == "/internal/webhooks/batch"
              and hmac.compare_digest(self.headers.get("authorization", ""), "Bearer " + token)
              and ts.isdigit() and abs(time.time() - int(ts)) < 300
              and hmac.compare_digest(self.headers.get("x-buffer-signature", ""), expected))
        if not ok:
            stats["refused"] += 1
            self.answer(401, {"error": "bad credentials"})
            return
        events = json.loads(body)["events"]
        stats["batches"] += 1
        stats["events"] += len(events)
        with open(out, "a") as f:
            for e in events:
                f.write(json.dumps(e) + "\n")
        self.answer(200, {})

    def log_message(self, *args):
        pass

ThreadingHTTPServer(("127.0.0.1", port), Origin).serve_forever()
PY
python3 "$work/origin.py" "$oport" "$origin_token" "$signing_secret" "$work/delivered.jsonl" &
origin_pid=$!

# 5. The container as k8s/deployment.yaml runs it: read-only root, /tmp writable, no capabilities, the memory limit.
say "podman run $app_image (--network host, --read-only, --memory $memory, ports $port/$mport, database $db)"
podman run -d --name "$container" --network host --read-only --tmpfs /tmp --cap-drop ALL \
    --security-opt no-new-privileges --memory "$memory" \
    -e QUARKUS_DATASOURCE_REACTIVE_URL="postgresql://127.0.0.1:5432/$db" \
    -e QUARKUS_DATASOURCE_JDBC_URL="jdbc:postgresql://127.0.0.1:5432/$db" \
    -e QUARKUS_DATASOURCE_USERNAME=postgres -e QUARKUS_DATASOURCE_PASSWORD="$(openssl rand -hex 16)" \
    -e QUARKUS_REDIS_HOSTS=redis://127.0.0.1:6379 \
    -e BUFFER_INGRESS_PORT="$port" -e BUFFER_MANAGEMENT_PORT="$mport" \
    -e BUFFER_CONTROL_SECRET="$control_secret" -e BUFFER_STATUS_TOKEN="$status_token" \
    -e BUFFER_ORIGIN_BASE_URL="http://127.0.0.1:$oport" -e BUFFER_ORIGIN_ALLOWED_PRIVATE_NETWORKS=127.0.0.1/32 \
    -e BUFFER_ORIGIN_TOKEN="$origin_token" -e BUFFER_DELIVERY_SIGNING_SECRET="$signing_secret" \
    -e BUFFER_SECRETS_KEYS="imagecheck:$(openssl rand -base64 32)" \
    "$app_image" >/dev/null
run_start=$(date +%s)
ready=
for _ in $(seq 1 180); do
  if [ "$(podman inspect --format '{{.State.Running}}' "$container" 2>/dev/null)" != true ]; then
    podman logs --tail 30 "$container" 2>&1 || true
    fail "the container stopped before it was ready"
  fi
  ready=$(curl -s --max-time 2 "http://127.0.0.1:$mport/q/health/ready" || true)
  python3 -c 'import json, sys; sys.exit(json.loads(sys.argv[1] or "{}").get("status") != "UP")' "$ready" 2>/dev/null && break
  ready=
  sleep 1
done
[ -n "$ready" ] || { podman logs --tail 30 "$container" 2>&1; fail "not ready within 180 s"; }
say "ready $(( $(date +%s) - run_start )) s after podman run: $(tr -d ' \n' <<<"$ready" | cut -c1-300)"
podman logs "$container" 2>&1 | grep -o '"message":"[^"]*\(Installed features\|warm-up: [0-9][^"]*\|started in\)[^"]*"' \
  | cut -c1-200 | sed 's/^/         log: /' || true

# 6. A tenant by a signed command (README "Try it"), then a signed webhook, its copy, and its delivery.
signed() { # METHOD PATH BODY: a control command signed in v2 to the management port; prints "STATUS BODY"
  local ts nonce sig
  ts=$(date +%s)
  nonce=$(openssl rand -base64 18 | tr '+/' '-_' | tr -d '=')
  sig=$(printf 'webhook-buffer-v2\ncommand\n%s\n%s\n%s\n%s\n%s' "$1" "$2" "$ts" "$nonce" "$3" \
        | openssl dgst -sha256 -hmac "$control_secret" -binary | openssl base64 -A | tr '+/' '-_' | tr -d '=')
  curl -s --max-time 10 -w ' %{http_code}' -X "$1" "http://127.0.0.1:$mport$2" -H 'content-type: application/json' \
       -H "x-timestamp: $ts" -H "x-nonce: $nonce" -H "x-signature: v2=$sig" ${3:+-d "$3"}
}
answer=$(signed PUT "/control/tenants/$tenant" \
  "{\"provider\":\"generic\",\"secrets\":[\"$webhook_secret\"],\"rateLimit\":100,\"rateWindowSeconds\":10}")
case "$answer" in *' 200'|*' 201') ;; *) fail "provisioning: $answer";; esac
say "tenant $tenant provisioned: HTTP ${answer##* }"

event_id="evt_$(date +%s)"
body="{\"type\":\"invoice.paid\",\"id\":\"$event_id\",\"amount\":4200}"
sig=$(printf '%s' "$body" | openssl dgst -sha256 -hmac "$webhook_secret" -hex | sed 's/^.* //')
send() { # SIGNATURE: prints "BODY STATUS"
  curl -s --max-time 10 -w ' %{http_code}' "http://127.0.0.1:$port/webhook/$tenant" -H "X-Signature: $1" \
       -H "X-Event-ID: $event_id" -H 'content-type: application/json' -d "$body"
}
answer=$(send "$sig")
case "$answer" in *' 202') ;; *) fail "signed webhook: expected 202, got $answer";; esac
say "signed webhook: HTTP 202 $(cut -c1-120 <<<"${answer% *}")"
answer=$(send "$sig")
case "$answer" in *'deduplicated'*' 200') ;; *) fail "its copy: expected 200 deduplicated, got $answer";; esac
say "the same webhook again: HTTP 200 deduplicated"
answer=$(send "$(printf '%064d' 0)")
case "$answer" in *' 401') ;; *) fail "a forged signature: expected 401, got $answer";; esac
say "a forged signature: HTTP 401"

delivered=
for _ in $(seq 1 60); do
  if [ -f "$work/delivered.jsonl" ] && grep -q "\"$event_id:" "$work/delivered.jsonl"; then delivered=yes; break; fi
  sleep 0.5
done
[ -n "$delivered" ] || fail "the event did not reach the origin within 30 s (origin: $(curl -s "127.0.0.1:$oport/"))"
python3 - "$work/delivered.jsonl" "$event_id" "$body" "$tenant" <<'PY' || fail "the delivered event differs from the sent one"
import json, sys
path, event_id, body, tenant = sys.argv[1:]
events = [json.loads(l) for l in open(path)]
mine = [e for e in events if e["eventId"].startswith(event_id + ":")]
assert len(mine) == 1 and mine[0]["rawBody"] == body and mine[0]["tenantId"] == tenant, mine
PY
say "delivered to the origin (bearer token and batch signature checked), raw body byte for byte: $(curl -s "127.0.0.1:$oport/")"

# 7. The metrics on the management port, and neither metrics nor commands on the webhook port.
metrics=$(curl -s --max-time 5 "http://127.0.0.1:$mport/q/metrics")
printf '%s\n' "$metrics" >"$cache/metrics.txt"
metric() { # NAME LABEL: the sum of the series so named with that label (value: the last field; labels hold spaces)
  awk -v name="$1" -v label="$2" 'index($0, name) == 1 && index($0, label) { sum += $NF } END { print sum + 0 }' <<<"$metrics"
}
buffered=$(metric 'buffer_ingest_total{' 'outcome="buffered"')
dedup=$(metric 'buffer_ingest_total{' 'outcome="deduplicated"')
awk -v n="$buffered" 'BEGIN { exit !(n >= 1) }' || fail "buffer_ingest_total{outcome=\"buffered\"} is $buffered"
awk -v n="$(metric 'buffer_ready ' '')" 'BEGIN { exit !(n == 1) }' || fail "buffer_ready is not 1"
heap=$(awk '/^jvm_memory_max_bytes[{]area="heap"/ && $NF + 0 > max { max = $NF + 0 } END { printf "%.0f", max / 1048576 }' \
  <<<"$metrics")
say "metrics: $(grep -c '^[a-z]' <<<"$metrics") series; buffer_ingest_total buffered=$buffered deduplicated=$dedup;" \
    "buffer_ready=$(metric 'buffer_ready ' ''); buffer_backlog_events=$(metric 'buffer_backlog_events ' '');" \
    "heap max $heap MiB (MaxRAMPercentage=65 of $memory)"
for path in /q/metrics /q/health/ready "/control/tenants/$tenant"; do
  code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 5 "http://127.0.0.1:$port$path")
  [ "$code" = 404 ] || fail "the webhook port answered $path with $code, not 404"
done
say "the webhook port answers 404 for /q/metrics, /q/health/ready and /control"
say "container memory: $(podman stats --no-stream --format '{{.MemUsage}}' "$container" 2>/dev/null || echo unknown)"

# 8. SIGTERM: graceful shutdown (the shutdown delay, then drain), within the 60 s k8s/ gives.
stop_start=$(date +%s)
podman stop -t 60 "$container" >/dev/null
podman logs "$container" >"$cache/container.log" 2>&1
say "stopped by SIGTERM in $(( $(date +%s) - stop_start )) s, exit code $(podman inspect --format '{{.State.ExitCode}}' \
  "$container"); its log ($cache/container.log): $(grep -c '"level":"WARN"' "$cache/container.log" || true) WARN," \
  "$(grep -c '"level":"ERROR"' "$cache/container.log" || true) ERROR"
if grep -q '"level":"ERROR"' "$cache/container.log"; then
  grep '"level":"ERROR"' "$cache/container.log" | grep -o '"message":"[^"]*"' | sort | uniq -c | head -5
  fail "ERROR lines in the container's log"
fi
say "PASS: deploy/Dockerfile built and ran ($app_image)"
