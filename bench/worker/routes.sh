#!/usr/bin/env bash
# Route matching with many proxies: the same Worker build twice, one with a single proxy and one with N proxies
# (distinct prefixes /svc/p0 ... /svc/p<N-1>, the same upstream), both pinned to CPU 0 (taskset) and measured in
# interleaved rounds; the upstream (nginx, 100-byte answers) and wrk -t1 on CPU 1. wrk cycles through the paths of
# every proxy (/svc/p<i>/items), and sends the same paths to the single-proxy Worker (prefix /svc), so the two differ
# only in the table they match against. BASELINE_REF=<git ref> also builds that commit (a temporary worktree) and
# runs its Worker with the N proxies beside them: before and after under the same load. ASYNC_PROFILER=<path of
# libasyncProfiler.so> (the linux-x64 jar of tools.profiler:async-profiler holds it) profiles every Worker during the
# measured rounds (PROFILE_EVENT cpu, the default, or alloc) and keeps collapsed stacks in PROFILE_DIR (default
# /tmp/pylon-routes-profile), one file per Worker, sampled every PROFILE_INTERVAL (async-profiler's default unless
# set: 10ms of CPU, 512k bytes); profiled rounds count the profiler's own cost.
#   bench/worker/routes.sh [proxies] [seconds-per-run] [rounds]
# Binds BENCH_ADDR (default 127.0.41.2), only loopback; bounded: about 2-3 x rounds x seconds plus the warm-up.
# Needs wrk, nginx, taskset and a JDK >= 21 (JAVA_HOME). Prints a Markdown table.
set -euo pipefail
trap 'echo "bench/worker/routes.sh: failed at line $LINENO: $BASH_COMMAND" >&2' ERR
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=scripts/pod-jvm.sh
. "$ROOT/scripts/pod-jvm.sh"
# shellcheck source=bench/worker/upstream.sh
. "$ROOT/bench/worker/upstream.sh"
PROXIES=${1:-1000}
DURATION=${2:-15}
ROUNDS=${3:-3}
ADDR=${BENCH_ADDR:-127.0.41.2}
case "$ADDR" in 127.*) ;; *) echo "BENCH_ADDR must be a loopback address (127.x.y.z), not '$ADDR'" >&2; exit 1 ;; esac
for tool in wrk nginx taskset; do
  command -v "$tool" >/dev/null 2>&1 || { echo "$tool is missing (apt-get install -y wrk nginx-light util-linux)" >&2; exit 1; }
done
[ "$(nproc)" -ge 2 ] || { echo "needs 2 CPUs (Workers on one, upstream and wrk on the other)" >&2; exit 1; }
# shellcheck source=scripts/jdk.sh
. "$ROOT/scripts/jdk.sh"
pylon_find_jdk || exit 1
export JAVA_HOME   # the builds (./mvnw) need it too
BASELINE_REF=${BASELINE_REF:-}
UPSTREAM_PORT=18280
ONE_PORT=18281
MANY_PORT=18282
BASELINE_PORT=18283
WORK=$(mktemp -d /tmp/pylon-bench-routes.XXXXXX)
chmod 755 "$WORK"
PIDS=()
cleanup() {
  local pid
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null || true; done
  [ -d "$WORK/baseline" ] && git -C "$ROOT" worktree remove --force "$WORK/baseline" 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT
( sleep 1800; echo "bench/worker/routes.sh: time limit reached" >&2; kill -TERM $$ ) & PIDS+=($!)

# the upstream: nginx on CPU 1, 100 bytes on every path
SMALL=$(printf '%099d' 0)
start_upstream "$WORK/up" "$ADDR" "$UPSTREAM_PORT" "location / { default_type text/plain; return 200 \"${SMALL}\\n\"; }"
PIDS+=($!)

build_worker() { # tree name: writes $WORK/name.cp and compiles StartWorker into $WORK/name.classes
  if ! nice -n 10 "$1/mvnw" -B -q -o -f "$1/pom.xml" -pl worker -am package dependency:build-classpath -DskipTests \
      -DskipErrorProne -Dmdep.includeScope=runtime -Dmdep.outputFile="$WORK/$2.cp.txt" > "$WORK/$2.build.log" 2>&1; then
    echo "cannot build the Worker in $1 (./mvnw -o -pl worker -am package); Maven said:" >&2
    grep -v '^WARNING' "$WORK/$2.build.log" >&2 || true
    exit 1
  fi
  echo "$1/worker/target/classes:$(cat "$WORK/$2.cp.txt")" > "$WORK/$2.cp"
  "$JAVA_HOME/bin/javac" -cp "$(cat "$WORK/$2.cp")" -d "$WORK/$2.classes" "$ROOT/bench/worker/StartWorker.java"
}
start_worker() { # name build port routes-file: on CPU 0 with a pod's JVM options; prints its pid
  PYLON_SERVER_BIND=$ADDR PYLON_SERVER_PORT=$3 PYLON_POD_NAME=worker-bench-$1 \
  PYLON_ENVIRONMENT_ID=0123456789abcdef01234567 PYLON_DATA_DIR="$WORK/$1.data" \
  PYLON_WORKER_ROUTES_FILE="$4" \
    taskset -c 0 "$JAVA_HOME/bin/java" ${WORKER_JAVA_OPTS:-$PYLON_POD_JVM_OPTS $(pylon_pod_heap_opts worker)} \
    -cp "$WORK/$2.classes:$(cat "$WORK/$2.cp")" StartWorker > "$WORK/$1.log" 2>&1 &
  echo $!
}

{
  echo "routes:"
  echo "  - {name: one, pathPrefix: /svc, upstreams: [http://$ADDR:$UPSTREAM_PORT]}"
} > "$WORK/one.yaml"
{
  echo "routes:"
  for i in $(seq 0 $((PROXIES - 1))); do
    echo "  - {name: p$i, pathPrefix: /svc/p$i, upstreams: [http://$ADDR:$UPSTREAM_PORT]}"
  done
} > "$WORK/many.yaml"
cat > "$WORK/paths.lua" <<LUA
local n = $PROXIES
local i = 0
request = function()
  i = (i + 1) % n
  return wrk.format("GET", "/svc/p" .. i .. "/items")
end
LUA

build_worker "$ROOT" current
ONE_PID=$(start_worker one current $ONE_PORT "$WORK/one.yaml"); PIDS+=($ONE_PID)
MANY_PID=$(start_worker many current $MANY_PORT "$WORK/many.yaml"); PIDS+=($MANY_PID)
NAMES="one many"
if [ -n "$BASELINE_REF" ]; then
  git -C "$ROOT" worktree add -q --detach "$WORK/baseline" "$BASELINE_REF"
  build_worker "$WORK/baseline" baseline
  BASELINE_PID=$(start_worker baseline baseline $BASELINE_PORT "$WORK/many.yaml"); PIDS+=($BASELINE_PID)
  NAMES="one many baseline"
fi
pid_of() { case "$1" in one) echo "$ONE_PID" ;; many) echo "$MANY_PID" ;; baseline) echo "$BASELINE_PID" ;; esac; }
port_of() { case "$1" in one) echo $ONE_PORT ;; many) echo $MANY_PORT ;; baseline) echo $BASELINE_PORT ;; esac; }
for name in $NAMES; do
  for _ in $(seq 1 300); do
    curl -sf -o /dev/null "http://$ADDR:$(port_of "$name")/svc/p$((PROXIES - 1))/items" && continue 2
    sleep 0.2
  done
  echo "the $name Worker does not answer; its log:" >&2; tail -20 "$WORK/$name.log" >&2; exit 1
done

HZ=$(getconf CLK_TCK)
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
run() { # file name seconds: wrk's output in file.txt, "requests cpu_ticks" in file.stats
  local t0
  t0=$(ticks "$(pid_of "$2")")
  taskset -c 1 wrk -t1 -c64 -d"$3"s --latency -s "$WORK/paths.lua" "http://$ADDR:$(port_of "$2")" > "$WORK/$1.txt" 2>&1 || true
  echo "$(awk '/requests in/ {print $1}' "$WORK/$1.txt") $(( $(ticks "$(pid_of "$2")") - t0 ))" > "$WORK/$1.stats"
}
rps() { awk '/^Requests\/sec/ {print $2}' "$WORK/$1.txt"; }
p99ms() {
  awk '$1 == "99%" { v = $2; if (v ~ /us$/) { sub(/us$/, "", v); v /= 1000 } else if (v ~ /ms$/) { sub(/ms$/, "", v) } else if (v ~ /s$/) { sub(/s$/, "", v); v *= 1000 }; printf "%.2f", v }' "$WORK/$1.txt"
}
errors() { awk '/Socket errors/ { gsub(",", ""); n += $4 + $6 + $8 + $10 } /Non-2xx/ { n += $NF } END { print n + 0 }' "$WORK/$1.txt"; }
cpu_us() { awk -v hz="$HZ" '{ if ($1 > 0) printf "%.1f", $2 / hz * 1e6 / $1; else print "-" }' "$WORK/$1.stats"; }

echo "warming up (C2 on a pinned core)..." >&2
for name in $NAMES; do
  previous=
  for step in $(seq 1 10); do
    run warm "$name" 10
    now=$(cpu_us warm)
    echo "  $name step $step: $now us of CPU per request" >&2
    if [ "$step" -ge 3 ] && awk -v a="$now" -v b="$previous" 'BEGIN { exit !(a >= b * 0.97) }'; then break; fi
    previous=$now
  done
done

ASYNC_PROFILER=${ASYNC_PROFILER:-}
PROFILE_EVENT=${PROFILE_EVENT:-cpu}
PROFILE_DIR=${PROFILE_DIR:-/tmp/pylon-routes-profile}
profiler() { # name command: loads the profiler into that Worker's JVM with the command (start or stop options)
  # quoted: jcmd would read the options' '=' as its own name=value arguments
  "$JAVA_HOME/bin/jcmd" "$(pid_of "$1")" JVMTI.agent_load "$ASYNC_PROFILER" "\"$2\"" > "$WORK/$1.profiler.log" 2>&1 || true
  grep -q '^return code: 0' "$WORK/$1.profiler.log" \
    || { echo "async-profiler failed on the $1 Worker:" >&2; cat "$WORK/$1.profiler.log" >&2; exit 1; }
}
if [ -n "$ASYNC_PROFILER" ]; then
  mkdir -p "$PROFILE_DIR"
  for name in $NAMES; do profiler "$name" "start,event=$PROFILE_EVENT${PROFILE_INTERVAL:+,interval=$PROFILE_INTERVAL}"; done
fi
LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
for round in $(seq 1 "$ROUNDS"); do
  for name in $NAMES; do run "$name-$round" "$name" "$DURATION"; done
  echo "round $round: $(for name in $NAMES; do printf '%s %s req/s  ' "$name" "$(rps "$name-$round")"; done)" >&2
done
LOAD_AFTER=$(cut -d' ' -f1-3 /proc/loadavg)
if [ -n "$ASYNC_PROFILER" ]; then
  for name in $NAMES; do profiler "$name" "stop,collapsed,file=$PROFILE_DIR/$name-$PROFILE_EVENT.collapsed"; done
  echo "profiles ($PROFILE_EVENT, collapsed stacks): $PROFILE_DIR" >&2
fi

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
col() { for round in $(seq 1 "$ROUNDS"); do "$2" "$1-$round"; echo; done | grep -v '^$' | median; }
ratios() { # name: the per-round requests/s ratio to the single-proxy Worker of the same round, and their median
  local all=
  for round in $(seq 1 "$ROUNDS"); do
    all="$all $(awk -v a="$(rps "$1-$round")" -v b="$(rps "one-$round")" 'BEGIN { printf "%.3f", a / b }')"
  done
  echo "$all / $(echo "$all" | tr ' ' '\n' | grep -v '^$' | median)"
}
ONE_RPS=$(col one rps)
echo
echo "| Worker | req/s | x one proxy (per round / median) | p99 ms | CPU us/req | errors |"
echo "|---|---:|---:|---:|---:|---:|"
for name in $NAMES; do
  case "$name" in one) label="1 proxy" ;; many) label="$PROXIES proxies" ;; baseline) label="$PROXIES proxies, $BASELINE_REF" ;; esac
  errs=0
  for round in $(seq 1 "$ROUNDS"); do errs=$((errs + $(errors "$name-$round"))); done
  printf '| %s | %.0f | %s | %s | %s | %s |\n' "$label" "$(col "$name" rps)" "$(ratios "$name")" \
    "$(col "$name" p99ms)" "$(col "$name" cpu_us)" "$errs"
done
echo
echo "Medians of $ROUNDS interleaved rounds of ${DURATION} s; wrk -t1 -c64 cycling over $PROXIES paths, with the upstream"
echo "nginx on CPU 1; each Worker on CPU 0. Load average before/after: $LOAD_BEFORE / $LOAD_AFTER on $(nproc) CPUs."
