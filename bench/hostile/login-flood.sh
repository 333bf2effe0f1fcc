#!/usr/bin/env bash
# Login flood: a 20 s flood of wrong-password token requests from 16 clients against a real Manager pod started
# by `./pylon run manager`, with /platform/management/health/live and /apiops/test/healthcheck probed every 250 ms.
#   bench/hostile/login-flood.sh            (from anywhere; builds the distribution through ./pylon when needed)
# Three scenarios, ROUNDS rounds each, a fresh pod (and database) per round:
#   no-flood     the probes alone: the baseline of this machine at this moment
#   defaults     the shipped settings: per-address and per-account throttles act, most of the flood is 429
#   no-throttle  per-address thresholds set out of reach: every request reaches the Argon2id pool (worst case)
# Each round prints probe p50/p99/max, the flood's status counts, the pod's RSS before and at its peak (VmHWM), the
# pod's CPU time during the flood, and whether a token issued before the flood still works.
# FLOOD_NICE=N runs the flood in a process of its own under `nice -n N` and probes from another, un-niced: in a
# cluster the attacker's CPU is not the pod's node's, while here the flood client takes half of the 2 cores.
# Addresses: the pod binds NET.1 (default NET=127.0.11); flood clients send from NET.10-25 (SOURCES of them).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"
. scripts/jdk.sh
pylon_find_jdk
BENCH="$ROOT/bench/hostile"
OUT=$(mktemp -d)
POD=
trap '[ -n "$POD" ] && kill "$POD" 2>/dev/null; rm -rf "$OUT"' EXIT
NET=${NET:-127.0.11}   # the pod binds NET.1, flood clients send from NET.10-25
HOST=$NET.1
SECONDS_FLOOD=${SECONDS_FLOOD:-20}
CLIENTS=${CLIENTS:-16}
SOURCES=${SOURCES:-16}
ROUNDS=${ROUNDS:-3}
SCENARIOS=${SCENARIOS:-"no-flood defaults no-throttle"}
PORT=${PORT:-$(python3 -c "import socket; s=socket.socket(); s.bind(('$HOST', 0)); print(s.getsockname()[1])")}
PASSWORD="bench-$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')"

./pylon settings >/dev/null   # builds the distribution first when the sources changed

start_pod() { # extra environment for the pod
  rm -rf "$OUT/data"
  env PYLON_DATA_DIR="$OUT/data" PYLON_MANAGER_ADMIN_PASSWORD="$PASSWORD" \
    PYLON_ENVIRONMENT_ID=0123456789abcdef01234567 "$@" \
    ./pylon run manager --pod-name manager-flood --bind "$HOST" --port "$PORT" >"$OUT/pod.log" 2>&1 &
  POD=$!
  for _ in $(seq 1 600); do
    curl -sf "http://$HOST:$PORT/platform/management/health/live" >/dev/null 2>&1 && return 0
    sleep 0.1
  done
  cat "$OUT/pod.log"; exit 1
}
stop_pod() { kill "$POD"; wait "$POD" 2>/dev/null || true; POD=; }
rss_mb() { awk -v k="$1:" '$1 == k {printf "%.0f", $2 / 1024}' "/proc/$POD/status"; }
cpu_ticks() { awk '{print $14 + $15}' "/proc/$POD/stat"; }   # user + system time of the pod, in clock ticks

echo "== $(date -u +%FT%TZ) load average:$(uptime | sed 's/.*load average://'), $(nproc) cores"
for scenario in $SCENARIOS; do
  for round in $(seq 1 "$ROUNDS"); do
    clients=$CLIENTS
    case $scenario in
      no-flood) start_pod; clients=0 ;;
      defaults) start_pod ;;
      no-throttle) start_pod PYLON_MANAGER_SIGNIN_SOURCE_MAX_FAILURES=1000000 \
                             PYLON_MANAGER_SIGNIN_ACCOUNT_SOURCE_MAX_FAILURES=1000000 ;;
    esac
    # one right sign-in: the token must keep working through the flood and the account lock it causes
    TOKEN=$(curl -s -d grant_type=client_credentials -d client_id=admin -d client_secret="$PASSWORD" \
      "http://$HOST:$PORT/apiops/auth/token" | sed 's/.*"access_token":"\([^"]*\)".*/\1/')
    before=$(rss_mb VmRSS)
    ticks=$(cpu_ticks)
    echo "-- $scenario round $round (load average:$(uptime | sed 's/.*load average://'))"
    if [ -n "${FLOOD_NICE:-}" ] && [ "$clients" -gt 0 ]; then
      nice -n "$FLOOD_NICE" "$PYLON_JAVA" "$BENCH/LoginFlood.java" "$HOST" "$PORT" "$SECONDS_FLOOD" "$clients" "$NET" \
        "$SOURCES" flood-only &
      flood=$!
      "$PYLON_JAVA" "$BENCH/LoginFlood.java" "$HOST" "$PORT" "$SECONDS_FLOOD" 0 "$NET" "$SOURCES"
      wait "$flood"
    else
      "$PYLON_JAVA" "$BENCH/LoginFlood.java" "$HOST" "$PORT" "$SECONDS_FLOOD" "$clients" "$NET" "$SOURCES"
    fi
    me=$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $TOKEN" "http://$HOST:$PORT/apiops/auth/me")
    cpu=$(awk -v t="$(( $(cpu_ticks) - ticks ))" -v hz="$(getconf CLK_TCK)" 'BEGIN {printf "%.1f", t / hz}')
    echo "rss before=${before}MB peak=$(rss_mb VmHWM)MB after=$(rss_mb VmRSS)MB; pod CPU during the flood ${cpu}s;" \
      "token from before the flood: $me"
    stop_pod
  done
done
