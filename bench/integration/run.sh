#!/usr/bin/env bash
# Integration benchmarks, on 127.0.47.x (Manager .1:8080, Integration .2:8092, a local JSON API .3:8081):
#   schedule: FLOWS flows scheduled every second (cron "* * * * * ?"), each an http GET of the local API and a
#             JSONata transform, on ONE Integration pod on its embedded H2 for SECONDS; reports runs per minute and
#             the start delay after the due instant (p50, p99, max), read from the run history.
#   history:  1,000,000 step records (250,000 runs x 4 steps) written into a fresh pod's H2 before it starts, then
#             the runs page (newest, and deep by keyset), and one run's steps, each timed ROUNDS times over HTTP.
#   compare:  db-scheduler beside Quartz's clustered JDBC job store (org.quartz-scheduler:quartz from Maven Central),
#             in one JVM on one embedded H2, two replicas each (SchedulerCompare.java): FLOWS jobs due every second for
#             SECONDS, the instants run twice (duplicate fires) or not at all, the start delay, then DOWNTIME seconds
#             with no replica and how many of the missed instants ran after it. No pods, no network.
# Usage: [BENCH_NET=127.0.47] bench/integration/run.sh [schedule|history|compare|all] [FLOWS=20] [SECONDS=90] [ROUNDS=50]
#        bench/integration/run.sh compare [JOBS=20] [SECONDS=60] [DOWNTIME=75]
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
if [ "$WHAT" = compare ]; then
  QUARTZ=org.quartz-scheduler:quartz:2.5.2
  ./mvnw -B -q dependency:copy -Dartifact=$QUARTZ -DoutputDirectory="$WORK/quartz" >/dev/null 2>&1
  "$JAVA_HOME/bin/javac" -nowarn -cp "$LIB/*:$WORK/quartz/*" -d "$WORK/classes" bench/integration/SchedulerCompare.java
  echo "machine: $(nproc) cores, load before: $(cut -d' ' -f1-3 /proc/loadavg)"
  "$PYLON_JAVA" -Xmx256m -cp "$LIB/*:$WORK/quartz/*:$WORK/classes" SchedulerCompare "$WORK" "${2:-20}" "${3:-60}" "${4:-75}" \
    2> "$WORK/compare.log" || { tail -40 "$WORK/compare.log" >&2; exit 1; }
  echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
  exit 0
fi
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
  # the four calls in turn within each round (one curl, one kept-alive connection): each sees the same load, so the
  # pages are read beside the pod's cheapest endpoint rather than minutes apart
  URLS=("$INTEGRATION/platform/management/version" "$INTEGRATION/platform/integration/flows/bench-3/runs?limit=50"
    "$INTEGRATION/platform/integration/flows/bench-3/runs?limit=50&before=20000" "$INTEGRATION/platform/integration/runs/$DEEP")
  for _ in $(seq 1 5); do curl -sf -H "$AUTH" -o /dev/null -o /dev/null -o /dev/null -o /dev/null "${URLS[@]}"; done
  for _ in $(seq 1 "$ROUNDS"); do
    curl -sf -H "$AUTH" -o /dev/null -o /dev/null -o /dev/null -o /dev/null -w '%{time_total}\n' "${URLS[@]}" | paste -sd' '
  done > "$WORK/history.txt"
  python3 - "$WORK/history.txt" <<'PY'
import sys
rows = [list(map(float, l.split())) for l in open(sys.argv[1]) if len(l.split()) == 4]
labels = ["baseline: GET management/version", "runs page, newest 50", "runs page, 50 before seq 20000 (deep)",
          "one run with its steps (deep)"]
for i, label in enumerate(labels):
    t = sorted(r[i] * 1000 for r in rows)
    pct = lambda p: t[min(len(t) - 1, int(p * len(t)))]
    print(f"history: {label:40s} p50 {pct(0.5):.1f} ms, p90 {pct(0.9):.1f} ms, p99 {pct(0.99):.1f} ms, max {t[-1]:.1f} ms ({len(t)} rounds)")
PY
  stop_last_pod
fi
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
