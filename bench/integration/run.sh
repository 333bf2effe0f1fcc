#!/usr/bin/env bash
# Integration benchmarks, on 127.0.47.x (Manager .1:8080, Integration .2:8092, a local JSON API .3:8081):
#   schedule: FLOWS flows scheduled every second (cron "* * * * * ?"), each an http GET of the local API and a
#             JSONata transform, on ONE Integration pod on its embedded H2 for SECONDS; reports runs per minute and
#             the start delay after the due instant (p50, p99, max), read from the run history.
#   history:  1,000,000 step records (250,000 runs x 4 steps) written into a fresh pod's H2 before it starts, then
#             the runs page (newest, and deep by keyset), and one run's steps, each timed ROUNDS times over HTTP.
# Usage: [BENCH_NET=127.0.47] bench/integration/run.sh [schedule|history|all] [FLOWS=20] [SECONDS=90] [ROUNDS=50]
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"
. scripts/jdk.sh
. scripts/pod-jvm.sh
pylon_find_jdk
WHAT=${1:-all}
FLOWS=${2:-20}
SECONDS_RUN=${3:-90}
ROUNDS=${4:-50}
[ -d distribution/target/pylon/lib ] || ./pylon settings >/dev/null
LIB="$ROOT/distribution/target/pylon/lib"
NET=${BENCH_NET:-127.0.47}
WORK=$(mktemp -d)
PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${PIDS[@]}"; do while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done; done
  rm -rf "$WORK"
}
trap cleanup EXIT
ENV_ID=$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')
ADMIN_PASSWORD=$(head -c 24 /dev/urandom | base64 | tr -d '/+=')

start_pod() { # module name address port [VAR=value...]
  local module=$1 name=$2 addr=$3 port=$4
  shift 4
  mkdir -p "$WORK/data/$name"
  # shellcheck disable=SC2046,SC2086
  env PYLON_ENVIRONMENT_NAME=local PYLON_ENVIRONMENT_ID="$ENV_ID" PYLON_DATA_DIR="$WORK/data/$name" "$@" \
    "$PYLON_JAVA" $(pylon_pod_heap_opts "$module") $PYLON_POD_JVM_OPTS \
    -cp "$LIB/*" io.pylon.distribution.PylonCli run "$module" --pod-name "$name" --bind "$addr" --port "$port" \
    > "$WORK/$name.log" 2>&1 &
  PIDS+=($!)
}
await_ready() {
  for _ in $(seq 1 600); do curl -sf -o /dev/null "$1/platform/management/health/ready" && return 0; sleep 0.25; done
  echo "not ready: $1" >&2; exit 1
}
stop_last_pod() {
  local pid=${PIDS[-1]}
  kill "$pid"; while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
  unset 'PIDS[-1]'
}

MANAGER=http://$NET.1:8080
INTEGRATION=http://$NET.2:8092
start_pod manager manager-0 $NET.1 8080 PYLON_MANAGER_ADMIN_USERNAME=admin PYLON_MANAGER_ADMIN_PASSWORD="$ADMIN_PASSWORD"
python3 bench/integration/stub.py $NET.3 8081 & PIDS+=($!)
await_ready "$MANAGER"
TOKEN=$(curl -sf -d grant_type=client_credentials -d client_id=admin -d client_secret="$ADMIN_PASSWORD" \
  "$MANAGER/apiops/auth/token" | jq -r .access_token)
AUTH="Authorization: Bearer $TOKEN"
INTEGRATION_ENV=(PYLON_INTEGRATION_MANAGER_URL=$MANAGER PYLON_INTEGRATION_ALLOWED_HOSTS=$NET.3)
echo "machine: $(nproc) cores, load before: $(cut -d' ' -f1-3 /proc/loadavg)"

if [ "$WHAT" = schedule ] || [ "$WHAT" = all ]; then
  start_pod integration integration-0 $NET.2 8092 "${INTEGRATION_ENV[@]}"
  await_ready "$INTEGRATION"
  for i in $(seq 1 "$FLOWS"); do
    curl -sf -o /dev/null -H "$AUTH" -H 'Content-Type: application/yaml' --data-binary @- "$INTEGRATION/platform/integration/flows" <<YAML
name: bench-$i
trigger: {schedule: {cron: "* * * * * ?", timezone: UTC}}
steps:
  - {id: fetch, http: {url: "http://$NET.3:8081/rates", timeout: 5s}}
  - {id: shape, transform: '{"eur": fetch.body.rates[code="EUR"].value}'}
YAML
  done
  sleep 10   # warm-up: the JIT and the pools
  FROM=$(date -u +%s)
  sleep "$SECONDS_RUN"
  TO=$(date -u +%s)
  for i in $(seq 1 "$FLOWS"); do
    curl -sf -H "$AUTH" "$INTEGRATION/platform/integration/flows/bench-$i/runs?limit=500" | jq -c '.runs[]'
  done > "$WORK/runs.jsonl"
  curl -sf -H "$AUTH" "$INTEGRATION/platform/diagnostics/integration" -H "Authorization: $ENV_ID" > "$WORK/diag.json" || true
  python3 - "$WORK/runs.jsonl" "$FROM" "$TO" <<'PY'
import json, sys, datetime
runs = [json.loads(l) for l in open(sys.argv[1])]
t0, t1 = int(sys.argv[2]), int(sys.argv[3])
def ts(s): return datetime.datetime.fromisoformat(s.replace("Z", "+00:00")).timestamp()
window = [r for r in runs if r["scheduledAt"] and t0 <= ts(r["scheduledAt"]) < t1]
delays = sorted(ts(r["startedAt"]) - ts(r["scheduledAt"]) for r in window if r["startedAt"])
ok = sum(1 for r in window if r["status"] == "succeeded")
def pct(p): return delays[min(len(delays) - 1, int(p * len(delays)))] * 1000
minutes = (t1 - t0) / 60
print(f"schedule: {len(window)} runs due in {t1 - t0} s = {len(window) / minutes:.0f} runs/min, {ok} succeeded;"
      f" start delay p50 {pct(0.50):.0f} ms, p99 {pct(0.99):.0f} ms, max {delays[-1] * 1000:.0f} ms")
PY
  stop_last_pod
fi

if [ "$WHAT" = history ] || [ "$WHAT" = all ]; then
  mkdir -p "$WORK/data/integration-1"
  "$PYLON_JAVA" -Xmx512m -cp "$LIB/*" bench/integration/HistoryFill.java "$WORK/data/integration-1" 250000 4 10
  start_pod integration integration-1 $NET.2 8092 "${INTEGRATION_ENV[@]}" PYLON_INTEGRATION_HISTORY_MAX_RUNS=10000000 \
    PYLON_INTEGRATION_HISTORY_RETENTION=3650d
  await_ready "$INTEGRATION"
  DEEP=$(curl -sf -H "$AUTH" "$INTEGRATION/platform/integration/flows/bench-3/runs?limit=1&before=20000" | jq -r '.runs[0].id')
  time_it() { # label url
    local label=$1 url=$2
    for _ in $(seq 1 5); do curl -sf -o /dev/null -H "$AUTH" "$url"; done
    for _ in $(seq 1 "$ROUNDS"); do curl -sf -o /dev/null -w '%{time_total}\n' -H "$AUTH" "$url"; done | sort -n |
      awk -v l="$label" '{a[NR]=$1} END {i=int(NR*0.99)+1; if (i>NR) i=NR; printf "history: %-40s p50 %.1f ms, p99 %.1f ms, max %.1f ms (%d rounds)\n", l, a[int(NR*0.5)+1]*1000, a[i]*1000, a[NR]*1000, NR}'
  }
  time_it "baseline: GET management/version" "$INTEGRATION/platform/management/version"
  time_it "runs page, newest 50" "$INTEGRATION/platform/integration/flows/bench-3/runs?limit=50"
  time_it "runs page, 50 before seq 20000 (deep)" "$INTEGRATION/platform/integration/flows/bench-3/runs?limit=50&before=20000"
  time_it "one run with its steps (deep)" "$INTEGRATION/platform/integration/runs/$DEEP"
  stop_last_pod
fi
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
