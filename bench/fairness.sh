#!/usr/bin/env bash
# The noisy-neighbour suite, longer (issue 40; docs/architecture.md "Fair shares"): the same test `mvn -B verify`
# runs (fairness.NoisyNeighbourTests), with tenant B sending more signed events while tenant A is attacked in every
# way at once (stalled and never-sent bodies, forgeries from B's address, an unknown-tenant flood, tarpit origins, a
# backlog past A's quota). It checks counts only, as in CI, and prints B's answer times with the conditions: figures,
# never a verdict (a p99 on a shared 2-core machine moves +-50% from run to run).
#
# usage: bench/fairness.sh [EVENTS [GAP_MS]]   (default 600 events, one every 50 ms: about a minute of attack)
# Needs Java 17+, Maven, PostgreSQL on 127.0.0.1:5432 and Redis on 127.0.0.1:6379 (or the embedded ones). Local
# only: everything talks to 127.0.0.1, and the test application stops with the test.
set -euo pipefail
cd "$(dirname "$0")/.."
events="${1:-600}"
gap="${2:-50}"
case "$events$gap" in *[!0-9]*) echo "usage: bench/fairness.sh [EVENTS [GAP_MS]] (whole numbers)" >&2; exit 2;; esac
echo "noisy neighbour: $events signed events to B, one every $gap ms, beside the attack on A"
status=0
mvn -B test -Dtest=NoisyNeighbourTests -Dsurefire.failIfNoSpecifiedTests=false -Dfairness.events="$events" \
    -Dfairness.gap-ms="$gap" || status=$?
grep -h "noisy neighbour:" target/webhook-buffer-test.log 2>/dev/null | tail -1 | sed 's/.*"message":"\([^"]*\)".*/\1/' || true
exit "$status"
