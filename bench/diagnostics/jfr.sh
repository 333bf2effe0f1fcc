#!/usr/bin/env bash
# What a flight recording costs the Worker's proxied requests. One Worker pod (the JVM options a
# pod gets) proxies to nginx's small upstream; wrk loads it in rounds, and in each cycle one round per mode of MODES
# (default "off pylon default"; the order rotates from cycle to cycle): "off" without a recording, any other word
# with a recording of those settings started before the round by the Worker's own `POST jfr?settings=<mode>` (the
# path an operator uses) and deleted after it. Prints per round requests/s and the Worker's CPU per request
# (/proc ticks over the round / requests), then the medians per mode and the CPU cost against "off".
#   bench/diagnostics/jfr.sh [seconds-per-round] [cycles] [connections]     (default 10 5 50)
# BENCH_ADDR: the loopback address of every process (default 127.0.0.1). Needs wrk and nginx.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=scripts/pod-jvm.sh
. "$ROOT/scripts/pod-jvm.sh"
DURATION=${1:-10}
CYCLES=${2:-5}
CONNECTIONS=${3:-50}
read -r -a MODE_LIST <<< "${MODES:-off pylon default}"
ADDR=${BENCH_ADDR:-127.0.0.1}
UPSTREAM_PORT=18180
PROXY_PORT=18181
WORKER_PORT=18191
BENCH_NAME=jfr
# shellcheck source=bench/worker/pods.sh
. "$ROOT/bench/worker/pods.sh"
trap bench_cleanup EXIT
bench_check_ports_free $UPSTREAM_PORT $PROXY_PORT $WORKER_PORT
bench_start_nginx
bench_start_worker "$PYLON_POD_JVM_OPTS"

JFR="http://$ADDR:$WORKER_PORT/platform/diagnostics/jfr?internal=true"
AUTH="Authorization: 0123456789abcdef01234567"
HZ=$(getconf CLK_TCK)
load() { # name seconds: wrk against the Worker; prints requests/s and the Worker's CPU us per request
  local t0
  t0=$(bench_ticks "$WORKER_PID")
  wrk -t2 -c"$CONNECTIONS" -d"$2"s "http://$ADDR:$WORKER_PORT/" > "$WORK/$1.txt"
  local ticks=$(( $(bench_ticks "$WORKER_PID") - t0 ))
  local rps
  rps=$(awk '/^Requests\/sec/ {print $2}' "$WORK/$1.txt")
  if grep -q 'Non-2xx\|Socket errors' "$WORK/$1.txt"; then
    echo "wrk saw errors in round $1:" >&2
    cat "$WORK/$1.txt" >&2
  fi
  awk -v r="$rps" -v t="$ticks" -v hz="$HZ" -v s="$2" 'BEGIN { printf "%.0f %.1f", r, t / hz * 1e6 / (r * s) }'
}
start_recording() { # settings -> id
  curl -sf -X POST -H "$AUTH" "$JFR&settings=$1&duration=1h&maxSizeMb=500" | grep -o '"id":"[0-9a-f]*"' | cut -d'"' -f4
}

echo "warming up (JIT of the Worker)..." >&2
load warm 30 > /dev/null
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
echo "| cycle | mode | Worker req/s | Worker CPU us/req |"
echo "|---:|---|---:|---:|"
n=${#MODE_LIST[@]}
for cycle in $(seq 1 "$CYCLES"); do
  for i in $(seq 0 $((n - 1))); do
    mode=${MODE_LIST[$(( (i + cycle - 1) % n ))]}
    id=
    if [ "$mode" != off ]; then
      id=$(start_recording "$mode")
      [ -n "$id" ] || { echo "could not start a '$mode' recording" >&2; exit 1; }
    fi
    read -r rps us <<< "$(load "$cycle-$mode" "$DURATION")"
    if ! kill -0 "$WORKER_PID" 2>/dev/null; then
      echo "the Worker ended during the '$mode' round; its log ends:" >&2
      tail -n 40 "$WORK/worker.log" >&2
      exit 1
    fi
    [ -n "$id" ] && curl -sf -o /dev/null -X DELETE -H "$AUTH" "$JFR&id=$id"
    echo "| $cycle | $mode | $rps | $us |"
    echo "$mode $rps $us" >> "$WORK/rounds.txt"
  done
done
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
echo
off_us=$(awk '$1=="off" {print $3}' "$WORK/rounds.txt" | median)
for mode in "${MODE_LIST[@]}"; do
  us=$(awk -v m="$mode" '$1==m {print $3}' "$WORK/rounds.txt" | median)
  rps=$(awk -v m="$mode" '$1==m {print $2}' "$WORK/rounds.txt" | median)
  echo "$mode: median $rps req/s, $us us CPU/req ($(awk -v a="$us" -v b="$off_us" 'BEGIN { printf "%+.1f%%", (a / b - 1) * 100 }') against off)"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
