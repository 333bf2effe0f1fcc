#!/usr/bin/env bash
# Worker gateway benchmark: wrk on loopback against the same small upstream called directly, through nginx as a
# reverse proxy (keep-alive to the upstream) and through the Worker, one after the other, repeated in rounds; the
# summary quotes the median round (by the Worker/nginx requests/s ratio), since one round on a noisy 2-core machine
# can be 10% off.
#   bench/worker/run.sh [duration-seconds] [connections] [rounds]
# WORKER_JAVA_OPTS replaces the Worker's JVM options (default: the ones a pod gets). BENCH_ADDR is the loopback address
# every process of the run binds and wrk calls (default 127.0.34.1: `./pylon up` holds 127.0.0.1-7), so that runs
# beside `./pylon up` or other benchmarks can take their own.
# BASELINE_REF=<git ref> also builds that commit (in a temporary worktree) and runs its Worker beside this tree's, on
# the next port, measured in the same rounds right after this tree's: a before/after comparison under the same load.
# Needs wrk and nginx (apt-get install -y wrk nginx) and a JDK >= 21 (JAVA_HOME). Prints a Markdown table.
set -euo pipefail
# a step that fails says so: no silent exit
trap 'echo "bench/worker/run.sh: failed at line $LINENO: $BASH_COMMAND" >&2' ERR
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=scripts/pod-jvm.sh
. "$ROOT/scripts/pod-jvm.sh"
DURATION=${1:-20}
CONNECTIONS=${2:-50}
ROUNDS=${3:-3}
THREADS=2
ADDR=${BENCH_ADDR:-127.0.34.1}
case "$ADDR" in
  127.*) ;;
  *) echo "BENCH_ADDR must be a loopback address (127.x.y.z), not '$ADDR'" >&2; exit 1 ;;
esac
UPSTREAM_PORT=18080
PROXY_PORT=18081
WORKER_PORT=18091
BASELINE_PORT=18092
BASELINE_REF=${BASELINE_REF:-}
JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
WORK=$(mktemp -d /tmp/pylon-bench-worker.XXXXXX)
NGINX_PID=
WORKER_PID=
BASELINE_PID=

cleanup() {
  local pid
  for pid in "$WORKER_PID" "$BASELINE_PID" "$NGINX_PID"; do
    [ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null || true
  done
  [ -d "$WORK/baseline" ] && git -C "$ROOT" worktree remove --force "$WORK/baseline" 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT

for port in $UPSTREAM_PORT $PROXY_PORT $WORKER_PORT $BASELINE_PORT; do
  if (exec 3<>/dev/tcp/$ADDR/$port) 2>/dev/null; then
    echo "port $port on $ADDR is in use; stop what listens there first" >&2
    exit 1
  fi
done

# nginx: upstream and reverse proxy, under a temporary prefix
mkdir -p "$WORK/nginx"
sed -e "s#@PREFIX@#$WORK/nginx#g" -e "s#@ADDR@#$ADDR#g" -e "s#@UPSTREAM_PORT@#$UPSTREAM_PORT#g" -e "s#@PROXY_PORT@#$PROXY_PORT#g" \
  "$ROOT/bench/worker/nginx.conf.template" > "$WORK/nginx/nginx.conf"
nginx -p "$WORK/nginx" -c "$WORK/nginx/nginx.conf" -e "$WORK/nginx/error.log" &
NGINX_PID=$!

# A Worker built from a source tree, with one catch-all route to the upstream. The class path names the jars the
# reactor just packaged (worker/target/*.jar, core/target/*.jar...), never a stale copy in ~/.m2; no `mvn install`.
build_worker() { # tree name: writes $WORK/name.cp
  if ! nice -n 10 "$1/mvnw" -B -q -o -f "$1/pom.xml" -pl worker -am package dependency:build-classpath -DskipTests \
      -Dmdep.includeScope=runtime -Dmdep.outputFile="$WORK/$2.cp.txt" > "$WORK/$2.build.log" 2>&1; then
    echo "cannot build the Worker's class path in $1 (./mvnw -o -pl worker -am package dependency:build-classpath); Maven said:" >&2
    grep -v '^WARNING' "$WORK/$2.build.log" >&2 || cat "$WORK/$2.build.log" >&2
    exit 1
  fi
  if [ ! -s "$WORK/$2.cp.txt" ] || [ ! -d "$1/worker/target/classes" ]; then
    echo "cannot build the Worker's class path in $1: Maven wrote no class path or worker/target/classes is missing" >&2
    exit 1
  fi
  echo "$1/worker/target/classes:$(cat "$WORK/$2.cp.txt")" > "$WORK/$2.cp"
  "$JAVA_HOME/bin/javac" -cp "$(cat "$WORK/$2.cp")" -d "$WORK/$2.classes" "$ROOT/bench/worker/StartWorker.java"
}
start_worker() { # name port: starts it in the background with the JVM options `./pylon run` gives a pod
  PYLON_SERVER_BIND=$ADDR PYLON_SERVER_PORT=$2 PYLON_POD_NAME=worker-bench-$1 \
  PYLON_ENVIRONMENT_ID=0123456789abcdef01234567 PYLON_DATA_DIR="$WORK/$1.data" \
  PYLON_WORKER_ROUTES_FILE="$WORK/routes.yaml" \
    "$JAVA_HOME/bin/java" ${WORKER_JAVA_OPTS:-$PYLON_POD_JVM_OPTS $(pylon_pod_heap_opts worker)} -cp "$WORK/$1.classes:$(cat "$WORK/$1.cp")" StartWorker \
    > "$WORK/$1.log" 2>&1 &
}
await_worker() { # name port
  for i in $(seq 1 150); do
    curl -sf "http://$ADDR:$2/" >/dev/null 2>&1 && return 0
    sleep 0.2
  done
  echo "the $1 Worker did not answer; log:" >&2; cat "$WORK/$1.log" >&2; exit 1
}

cat > "$WORK/routes.yaml" <<ROUTES
routes:
  - name: small
    pathPrefix: /
    upstreams: [http://$ADDR:$UPSTREAM_PORT]
ROUTES
build_worker "$ROOT" worker
start_worker worker $WORKER_PORT
WORKER_PID=$!
if [ -n "$BASELINE_REF" ]; then
  git -C "$ROOT" worktree add -q --detach "$WORK/baseline" "$BASELINE_REF"
  build_worker "$WORK/baseline" baseline
  start_worker baseline $BASELINE_PORT
  BASELINE_PID=$!
  await_worker baseline $BASELINE_PORT
fi
await_worker worker $WORKER_PORT
for i in $(seq 1 50); do
  curl -sf "http://$ADDR:$PROXY_PORT/" >/dev/null 2>&1 && break
  sleep 0.2
done

ticks() { # CPU clock ticks (user + system) used so far by the given processes
  local total=0 pid
  for pid in "$@"; do
    total=$((total + $(awk '{print $14 + $15}' "/proc/$pid/stat" 2>/dev/null || echo 0)))
  done
  echo "$total"
}
nginx_pids() { echo "$NGINX_PID $(pgrep -P "$NGINX_PID" | tr '\n' ' ')"; }

run_wrk() { # name url seconds; also records the CPU the Worker, nginx and the baseline Worker used meanwhile
  local w0 n0 b0
  w0=$(ticks "$WORKER_PID"); n0=$(ticks $(nginx_pids)); b0=$(ticks $BASELINE_PID)
  wrk -t$THREADS -c$CONNECTIONS -d"$3"s --latency "$2" > "$WORK/$1.txt"
  echo "$(( $(ticks "$WORKER_PID") - w0 )) $(( $(ticks $(nginx_pids)) - n0 )) $(( $(ticks $BASELINE_PID) - b0 ))" \
    > "$WORK/$1.cpu"
}

echo "warming up (JIT of the Worker, nginx caches)..." >&2
# A Worker until C2 has compiled the hot path: 10 s steps, at least 30 s, until its CPU per request stops falling
# (within 3% of the step before) or after 120 s; on a busy machine the compiler threads get little CPU and 30 s was
# not enough, which measured compilation instead of the gateway.
warm_worker() { # name port column(1=worker, 3=baseline)
  local previous= now step
  for step in $(seq 1 12); do
    run_wrk "warm-$1" "http://$ADDR:$2/" 10
    now=$(awk -v hz="$(getconf CLK_TCK)" -v col="$3" -v r="$(awk '/^Requests\/sec/ {print $2}' "$WORK/warm-$1.txt")" \
      '{ printf "%.1f", $col / hz * 1e6 / (r * 10) }' "$WORK/warm-$1.cpu")
    echo "  warm-up step $step: $1 Worker $now us of CPU per request" >&2
    if [ "$step" -ge 3 ] && awk -v a="$now" -v b="$previous" 'BEGIN { exit !(a >= b * 0.97) }'; then
      return 0
    fi
    previous=$now
  done
}
warm_worker worker $WORKER_PORT 1
[ -n "$BASELINE_REF" ] && warm_worker baseline $BASELINE_PORT 3
run_wrk warm-nginx "http://$ADDR:$PROXY_PORT/" 3
run_wrk warm-direct "http://$ADDR:$UPSTREAM_PORT/" 3

echo "measuring ${DURATION}s each, $THREADS threads, $CONNECTIONS connections, $ROUNDS rounds..." >&2
rps() { awk '/^Requests\/sec/ {print $2}' "$WORK/$1.txt"; }
p50() { awk '$1=="50%" {print $2}' "$WORK/$1.txt"; }
p99() { awk '$1=="99%" {print $2}' "$WORK/$1.txt"; }
errors() { awk '/Non-2xx|Socket errors/ {print}' "$WORK/$1.txt" | tr '\n' ' '; }
ms() { # wrk latency (e.g. 812.00us, 1.20ms, 2.01s) in ms
  awk -v v="$1" 'BEGIN { n=v+0; if (v ~ /us$/) n/=1000; else if (v ~ /ms$/) n=n; else if (v ~ /s$/) n*=1000; printf "%.2f", n }'
}
# CPU per request in microseconds: the Worker's own; nginx's proxying = nginx in the proxy run minus nginx in the
# direct run (in the proxy run nginx also plays the upstream). Less sensitive to other load than requests/s.
HZ=$(getconf CLK_TCK)
cpu_us() { # name which(1=worker,2=nginx,3=baseline Worker)
  awk -v hz="$HZ" -v col="$2" -v secs="$DURATION" -v r="$(rps "$1")" '{ printf "%.1f", $col / hz * 1e6 / (r * secs) }' "$WORK/$1.cpu"
}

echo
echo "| round | direct req/s | nginx req/s | Worker req/s | Worker/nginx req/s | nginx p99 ms | Worker p99 ms | Worker/nginx p99 | Worker CPU us/req | nginx proxying CPU us/req | errors |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"
: > "$WORK/rounds.txt"
for round in $(seq 1 "$ROUNDS"); do
  run_wrk direct "http://$ADDR:$UPSTREAM_PORT/" "$DURATION"
  run_wrk nginx "http://$ADDR:$PROXY_PORT/" "$DURATION"
  run_wrk worker "http://$ADDR:$WORKER_PORT/" "$DURATION"
  [ -n "$BASELINE_REF" ] && run_wrk baseline "http://$ADDR:$BASELINE_PORT/" "$DURATION"
  ratio=$(awk -v w="$(rps worker)" -v n="$(rps nginx)" 'BEGIN { printf "%.2f", w/n }')
  p99ratio=$(awk -v w="$(ms "$(p99 worker)")" -v n="$(ms "$(p99 nginx)")" 'BEGIN { printf "%.2f", w/n }')
  proxying=$(awk -v a="$(cpu_us nginx 2)" -v b="$(cpu_us direct 2)" 'BEGIN { printf "%.1f", a - b }')
  line="| $round | $(rps direct) | $(rps nginx) | $(rps worker) | $ratio | $(ms "$(p99 nginx)") | $(ms "$(p99 worker)") | $p99ratio | $(cpu_us worker 1) | $proxying | $(errors direct)$(errors nginx)$(errors worker) |"
  echo "$line"
  echo "$ratio $p99ratio $line" >> "$WORK/rounds.txt"
  if [ -n "$BASELINE_REF" ]; then
    echo "| $round | $(cpu_us baseline 3) | $(cpu_us worker 1) | $(rps baseline) | $(rps worker) | $(ms "$(p99 baseline)") | $(ms "$(p99 worker)") |" \
      >> "$WORK/baseline-rounds.txt"
  fi
done
median=$(sort -n -k1,1 "$WORK/rounds.txt" | awk -v n="$ROUNDS" 'NR == int((n + 1) / 2)')
p99median=$(sort -n -k2,2 "$WORK/rounds.txt" | awk -v n="$ROUNDS" 'NR == int((n + 1) / 2) { print $2 }')
echo
echo "Median round by requests/s ratio: ${median#* * }"
echo "Worker/nginx requests/s, median of $ROUNDS rounds: ${median%% *} (target >= 0.75); Worker/nginx p99, median: $p99median (target <= 1.5)"
if [ -n "$BASELINE_REF" ]; then
  echo
  echo "Baseline $BASELINE_REF ($(git -C "$ROOT" rev-parse --short "$BASELINE_REF")) against this tree ($(git -C "$ROOT" rev-parse --short HEAD)$(git -C "$ROOT" diff --quiet HEAD -- . || echo ', with uncommitted changes')), same rounds:"
  echo
  echo "| round | baseline CPU us/req | this tree CPU us/req | baseline req/s | this tree req/s | baseline p99 ms | this tree p99 ms |"
  echo "|---:|---:|---:|---:|---:|---:|---:|"
  cat "$WORK/baseline-rounds.txt"
  echo
  echo "Median CPU per request: baseline $(awk -F'|' '{print $3}' "$WORK/baseline-rounds.txt" | sort -n | awk -v n="$ROUNDS" 'NR == int((n + 1) / 2) {print $1}') us, this tree $(awk -F'|' '{print $4}' "$WORK/baseline-rounds.txt" | sort -n | awk -v n="$ROUNDS" 'NR == int((n + 1) / 2) {print $1}') us"
fi
echo "Load average at the end: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
RSS=$(awk '/VmRSS/ {print $2}' /proc/$WORKER_PID/status)
echo "Worker RSS after the run: $((RSS / 1024)) MiB"
curl -s -H "Authorization: 0123456789abcdef01234567" \
  "http://$ADDR:$WORKER_PORT/platform/management/health" | head -c 600; echo
