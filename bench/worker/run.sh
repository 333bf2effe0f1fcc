#!/usr/bin/env bash
# Worker gateway benchmark: wrk on loopback against the same small upstream called directly, through nginx as a
# reverse proxy (keep-alive to the upstream) and through the Worker, one after the other, repeated in rounds; the
# summary quotes the median round (by the Worker/nginx requests/s ratio), since one round on a noisy 2-core machine
# can be 10% off.
#   bench/worker/run.sh [duration-seconds] [connections] [rounds]
# WORKER_JAVA_OPTS replaces the Worker's JVM options (default: the ones a pod gets). BENCH_ADDR is the loopback address
# every process of the run binds and wrk calls (default 127.0.34.1: `./pylon up` holds 127.0.0.1-7), so that runs
# beside `./pylon up` or other benchmarks can take their own.
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
JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
WORK=$(mktemp -d /tmp/pylon-bench-worker.XXXXXX)
NGINX_PID=
WORKER_PID=

cleanup() {
  [ -n "$WORKER_PID" ] && kill "$WORKER_PID" 2>/dev/null && wait "$WORKER_PID" 2>/dev/null || true
  [ -n "$NGINX_PID" ] && kill "$NGINX_PID" 2>/dev/null && wait "$NGINX_PID" 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT

for port in $UPSTREAM_PORT $PROXY_PORT $WORKER_PORT; do
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

# the Worker, built from this tree, with one catch-all route to the upstream. The class path names the jars the
# reactor just packaged (worker/target/*.jar, core/target/*.jar...), never a stale copy in ~/.m2; no `mvn install`.
if ! nice -n 10 "$ROOT/mvnw" -B -q -o -f "$ROOT/pom.xml" -pl worker -am package dependency:build-classpath -DskipTests \
    -Dmdep.includeScope=runtime -Dmdep.outputFile="$WORK/cp.txt" > "$WORK/build.log" 2>&1; then
  echo "cannot build the Worker's class path (./mvnw -o -pl worker -am package dependency:build-classpath); Maven said:" >&2
  grep -v '^WARNING' "$WORK/build.log" >&2 || cat "$WORK/build.log" >&2
  exit 1
fi
if [ ! -s "$WORK/cp.txt" ] || [ ! -d "$ROOT/worker/target/classes" ]; then
  echo "cannot build the Worker's class path: Maven wrote no class path or worker/target/classes is missing" >&2
  exit 1
fi
CP="$ROOT/worker/target/classes:$(cat "$WORK/cp.txt")"
cat > "$WORK/routes.yaml" <<ROUTES
routes:
  - name: small
    pathPrefix: /
    upstreams: [http://$ADDR:$UPSTREAM_PORT]
ROUTES
"$JAVA_HOME/bin/javac" -cp "$CP" -d "$WORK/classes" "$ROOT/bench/worker/StartWorker.java"
# the JVM options `./pylon run` gives a pod
PYLON_SERVER_BIND=$ADDR PYLON_SERVER_PORT=$WORKER_PORT PYLON_POD_NAME=worker-bench \
PYLON_ENVIRONMENT_ID=0123456789abcdef01234567 PYLON_DATA_DIR="$WORK/data" \
PYLON_WORKER_ROUTES_FILE="$WORK/routes.yaml" \
  "$JAVA_HOME/bin/java" ${WORKER_JAVA_OPTS:-$PYLON_POD_JVM_OPTS} -cp "$WORK/classes:$CP" StartWorker > "$WORK/worker.log" 2>&1 &
WORKER_PID=$!

for i in $(seq 1 100); do
  if curl -sf "http://$ADDR:$WORKER_PORT/" >/dev/null 2>&1 && curl -sf "http://$ADDR:$PROXY_PORT/" >/dev/null 2>&1; then
    break
  fi
  sleep 0.2
done
curl -sf "http://$ADDR:$WORKER_PORT/" >/dev/null || { echo "the Worker did not answer; log:" >&2; cat "$WORK/worker.log" >&2; exit 1; }

ticks() { # CPU clock ticks (user + system) used so far by the given processes
  local total=0 pid
  for pid in "$@"; do
    total=$((total + $(awk '{print $14 + $15}' "/proc/$pid/stat" 2>/dev/null || echo 0)))
  done
  echo "$total"
}
nginx_pids() { echo "$NGINX_PID $(pgrep -P "$NGINX_PID" | tr '\n' ' ')"; }

run_wrk() { # name url seconds; also records the CPU the Worker and nginx used meanwhile
  local w0 n0
  w0=$(ticks "$WORKER_PID"); n0=$(ticks $(nginx_pids))
  wrk -t$THREADS -c$CONNECTIONS -d"$3"s --latency "$2" > "$WORK/$1.txt"
  echo "$(( $(ticks "$WORKER_PID") - w0 )) $(( $(ticks $(nginx_pids)) - n0 ))" > "$WORK/$1.cpu"
}

echo "warming up (JIT of the Worker, nginx caches)..." >&2
# The Worker until C2 has compiled the hot path: 10 s steps, at least 30 s, until its CPU per request stops falling
# (within 3% of the step before) or after 120 s; on a busy machine the compiler threads get little CPU and 30 s was
# not enough, which measured compilation instead of the gateway.
previous=
for step in $(seq 1 12); do
  run_wrk warm-worker "http://$ADDR:$WORKER_PORT/" 10
  now=$(awk -v hz="$(getconf CLK_TCK)" -v r="$(awk '/^Requests\/sec/ {print $2}' "$WORK/warm-worker.txt")" \
    '{ printf "%.1f", $1 / hz * 1e6 / (r * 10) }' "$WORK/warm-worker.cpu")
  echo "  warm-up step $step: Worker $now us of CPU per request" >&2
  if [ "$step" -ge 3 ] && awk -v a="$now" -v b="$previous" 'BEGIN { exit !(a >= b * 0.97) }'; then
    break
  fi
  previous=$now
done
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
cpu_us() { # name which(1=worker,2=nginx)
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
  ratio=$(awk -v w="$(rps worker)" -v n="$(rps nginx)" 'BEGIN { printf "%.2f", w/n }')
  p99ratio=$(awk -v w="$(ms "$(p99 worker)")" -v n="$(ms "$(p99 nginx)")" 'BEGIN { printf "%.2f", w/n }')
  proxying=$(awk -v a="$(cpu_us nginx 2)" -v b="$(cpu_us direct 2)" 'BEGIN { printf "%.1f", a - b }')
  line="| $round | $(rps direct) | $(rps nginx) | $(rps worker) | $ratio | $(ms "$(p99 nginx)") | $(ms "$(p99 worker)") | $p99ratio | $(cpu_us worker 1) | $proxying | $(errors direct)$(errors nginx)$(errors worker) |"
  echo "$line"
  echo "$ratio $p99ratio $line" >> "$WORK/rounds.txt"
done
median=$(sort -n -k1,1 "$WORK/rounds.txt" | awk -v n="$ROUNDS" 'NR == int((n + 1) / 2)')
p99median=$(sort -n -k2,2 "$WORK/rounds.txt" | awk -v n="$ROUNDS" 'NR == int((n + 1) / 2) { print $2 }')
echo
echo "Median round by requests/s ratio: ${median#* * }"
echo "Worker/nginx requests/s, median of $ROUNDS rounds: ${median%% *} (target >= 0.75); Worker/nginx p99, median: $p99median (target <= 1.5)"
echo "Load average at the end: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
RSS=$(awk '/VmRSS/ {print $2}' /proc/$WORKER_PID/status)
echo "Worker RSS after the run: $((RSS / 1024)) MiB"
curl -s -H "Authorization: 0123456789abcdef01234567" \
  "http://$ADDR:$WORKER_PORT/platform/management/health" | head -c 600; echo
