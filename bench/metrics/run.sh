#!/usr/bin/env bash
# Metrics benchmark: the Worker's proxied requests/s and health requests/s with metrics on and off, and
# the cost of one scrape of a Worker with 50 routes and 10 upstreams.
#   bench/metrics/run.sh [duration-seconds] [connections] [rounds]
# Two Worker pods from this tree, one with pylon.metrics.enabled=true and one with false, both proxying to the same
# nginx upstream; in each round wrk loads one at a time (proxied path, then health), the order alternating between
# rounds. Quotes the median round of each ratio. Then ScrapeCost.java: an in-process Worker with 50 routes over 10
# upstreams, traffic on every route, and timed scrapes in both formats.
# BENCH_ADDR: the loopback address everything binds (default 127.0.20.1); SCRAPE_ONLY=1 runs the scrape cost alone.
# Needs wrk, nginx, curl and a JDK >= 21.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=scripts/pod-jvm.sh
. "$ROOT/scripts/pod-jvm.sh"
DURATION=${1:-15}
CONNECTIONS=${2:-50}
ROUNDS=${3:-5}
THREADS=2
ADDR=${BENCH_ADDR:-127.0.20.1}
UPSTREAM_PORT=18080
PROXY_PORT=18081
ON_PORT=18091
OFF_PORT=18092
BENCH_NAME=metrics
# shellcheck source=bench/worker/pods.sh
. "$ROOT/bench/worker/pods.sh"
PIDS=()

cleanup() {
  for pid in "${PIDS[@]}"; do
    kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null || true
  done
  rm -rf "$WORK"
}
trap cleanup EXIT

bench_check_ports_free $UPSTREAM_PORT $PROXY_PORT $ON_PORT $OFF_PORT
bench_start_nginx
PIDS+=("$NGINX_PID")
bench_worker_classpath "$ROOT/bench/metrics/ScrapeCost.java"

start_worker() { # port metrics-enabled
  PYLON_SERVER_BIND=$ADDR PYLON_SERVER_PORT=$1 PYLON_POD_NAME=worker-metrics-$2 PYLON_METRICS_ENABLED=$2 \
  PYLON_ENVIRONMENT_ID=0123456789abcdef01234567 PYLON_DATA_DIR="$WORK/data-$2" \
  PYLON_WORKER_ROUTES_FILE="$WORK/routes.yaml" \
    "$JAVA_HOME/bin/java" ${WORKER_JAVA_OPTS:-$PYLON_POD_JVM_OPTS} -cp "$WORK/classes:$CP" StartWorker > "$WORK/worker-$2.log" 2>&1 &
  PIDS+=($!)
}
if [ "${SCRAPE_ONLY:-0}" = 1 ]; then
  "$JAVA_HOME/bin/java" ${WORKER_JAVA_OPTS:-$PYLON_POD_JVM_OPTS} -cp "$WORK/classes:$CP" ScrapeCost "$ADDR" "$WORK/scrape" 2>/dev/null
  echo "Load average at the end: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
  exit 0
fi
start_worker $ON_PORT true
start_worker $OFF_PORT false
for port in $ON_PORT $OFF_PORT; do
  for i in $(seq 1 150); do
    curl -sf "http://$ADDR:$port/" >/dev/null 2>&1 && break
    sleep 0.2
  done
  curl -sf "http://$ADDR:$port/" >/dev/null || { echo "the Worker on $port did not answer" >&2; cat "$WORK"/worker-*.log >&2; exit 1; }
done
curl -sf "http://$ADDR:$ON_PORT/platform/management/metrics" | grep -q '^pylon_build_info' || { echo "metrics are not on" >&2; exit 1; }
[ "$(curl -s -o /dev/null -w '%{http_code}' "http://$ADDR:$OFF_PORT/platform/management/metrics")" = 404 ] || { echo "metrics are not off" >&2; exit 1; }

HEALTH=/platform/management/health
run_wrk() { # name url seconds
  wrk -t$THREADS -c$CONNECTIONS -d"$3"s "$2" > "$WORK/$1.txt"
}
rps() { awk '/^Requests\/sec/ {print $2}' "$WORK/$1.txt"; }
errors() { awk '/Non-2xx|Socket errors/ {print}' "$WORK/$1.txt" | tr '\n' ' '; }

echo "warming up both Workers (JIT)..." >&2
for port in $ON_PORT $OFF_PORT; do
  run_wrk warm "http://$ADDR:$port/" 20
  run_wrk warm "http://$ADDR:$port$HEALTH" 10
done

echo "measuring ${DURATION}s each, $THREADS threads, $CONNECTIONS connections, $ROUNDS rounds..." >&2
echo
echo "| round | proxied on req/s | proxied off req/s | on/off | health on req/s | health off req/s | on/off | errors |"
echo "|---:|---:|---:|---:|---:|---:|---:|---|"
: > "$WORK/rounds.txt"
for round in $(seq 1 "$ROUNDS"); do
  if [ $((round % 2)) = 1 ]; then order="on off"; else order="off on"; fi
  for which in $order; do
    port=$([ "$which" = on ] && echo $ON_PORT || echo $OFF_PORT)
    run_wrk "proxied-$which" "http://$ADDR:$port/" "$DURATION"
    run_wrk "health-$which" "http://$ADDR:$port$HEALTH" "$DURATION"
  done
  pr=$(awk -v a="$(rps proxied-on)" -v b="$(rps proxied-off)" 'BEGIN { printf "%.3f", a/b }')
  hr=$(awk -v a="$(rps health-on)" -v b="$(rps health-off)" 'BEGIN { printf "%.3f", a/b }')
  echo "| $round | $(rps proxied-on) | $(rps proxied-off) | $pr | $(rps health-on) | $(rps health-off) | $hr | $(errors proxied-on)$(errors proxied-off)$(errors health-on)$(errors health-off) |"
  echo "$pr $hr" >> "$WORK/rounds.txt"
done
mid=$(( (ROUNDS + 1) / 2 ))
echo
echo "Proxied requests/s on/off, median of $ROUNDS rounds: $(sort -n -k1,1 "$WORK/rounds.txt" | awk -v m=$mid 'NR == m {print $1}') (target >= 0.95)"
echo "Health requests/s on/off, median of $ROUNDS rounds: $(sort -n -k2,2 "$WORK/rounds.txt" | awk -v m=$mid 'NR == m {print $2}') (target >= 0.95)"
echo "Load average after the rounds: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null || true; done
PIDS=()

echo
echo "Scrape cost, Worker with 50 routes over 10 upstreams:"
"$JAVA_HOME/bin/java" ${WORKER_JAVA_OPTS:-$PYLON_POD_JVM_OPTS} -cp "$WORK/classes:$CP" ScrapeCost "$ADDR" "$WORK/scrape" 2>/dev/null
echo "Load average at the end: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
