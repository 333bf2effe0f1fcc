#!/usr/bin/env bash
# The Worker's health endpoint against Spring Boot Actuator's /actuator/health, in the same run.
# Builds the distribution (as `./pylon` does: package, when the sources changed) and the Actuator application beside
# this script (its own pom.xml, not a module of the reactor), starts a Worker pod with `./pylon run worker` on
# ADDR.1:8091 and the Actuator application on ADDR.2:8080, both with the same JVM options (JVM_OPTS, default: the ones
# `./pylon run worker` gives a pod, without its start-up cache), warms each up, then measures interleaved rounds of
# `wrk -t2 -c64` on each (the order alternates from round to round, so that a slow spell of the machine does not
# always fall on the same side) and prints req/s, p99 and CPU per request per round, the medians and their ratio.
#   bench/actuator/run.sh [ROUNDS]     (default 5)
#   ADDR=127.0.39 DURATION=10 WARMUP=20 JVM_OPTS="..."   (needs wrk, a JDK >= 21, Maven Central the first time)
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"
# shellcheck source=scripts/jdk.sh
. scripts/jdk.sh
# shellcheck source=scripts/pod-jvm.sh
. scripts/pod-jvm.sh
pylon_find_jdk
ROUNDS=${1:-5}
ADDR=${ADDR:-127.0.39}
DURATION=${DURATION:-10}
WARMUP=${WARMUP:-20}
JVM_OPTS=${JVM_OPTS:-$PYLON_POD_JVM_OPTS $(pylon_pod_heap_opts worker)}
WORKER_URL="http://$ADDR.1:8091/platform/management/health"
ACTUATOR_URL="http://$ADDR.2:8080/actuator/health"
case "$ADDR" in
  127.*) ;;
  *) echo "ADDR must be the first three parts of a loopback address (127.x.y), not '$ADDR'" >&2; exit 1 ;;
esac
case "$ROUNDS" in
  '' | *[!0-9]* | 0) echo "ROUNDS must be a whole number of at least 1, not '$ROUNDS'" >&2; exit 1 ;;
esac
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install wrk" >&2; exit 1; }

WORK=$(mktemp -d /tmp/pylon-bench-actuator.XXXXXX)
WORKER_PID=
ACTUATOR_PID=
cleanup() {
  local pid
  for pid in $WORKER_PID $ACTUATOR_PID; do
    kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null || true
  done
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM # through the EXIT trap, which stops both servers

for url in "$WORKER_URL" "$ACTUATOR_URL"; do
  hostport=${url#http://}; hostport=${hostport%%/*}
  if (exec 3<>"/dev/tcp/${hostport%:*}/${hostport#*:}") 2>/dev/null; then
    echo "$hostport is in use; stop what listens there first" >&2
    exit 1
  fi
done

echo "building the distribution (when the sources changed) and the Actuator application..." >&2
if ! nice -n 10 ./pylon settings > "$WORK/build.log" 2>&1; then
  echo "cannot build the distribution; the build said:" >&2
  grep -v '^WARNING' "$WORK/build.log" >&2
  exit 1
fi
if ! nice -n 10 ./mvnw -B -q -f bench/actuator/pom.xml package -DskipTests \
    > "$WORK/build.log" 2>&1; then
  echo "cannot build the Actuator application (bench/actuator/pom.xml); Maven said:" >&2
  grep -v '^WARNING' "$WORK/build.log" >&2
  exit 1
fi
ACTUATOR_JAR=$ROOT/bench/actuator/target/actuator-bench.jar
[ -s "$ACTUATOR_JAR" ] || { echo "the Actuator build wrote no $ACTUATOR_JAR" >&2; exit 1; }

# shellcheck disable=SC2086
PYLON_POD_JAVA_OPTS="$JVM_OPTS" PYLON_DATA_DIR="$WORK/data" \
  ./pylon run worker --pod-name worker-bench --bind "$ADDR.1" --port 8091 > "$WORK/worker.log" 2>&1 &
WORKER_PID=$! # the launcher execs the JVM: this is the pod's process
# shellcheck disable=SC2086
"$PYLON_JAVA" $JVM_OPTS -jar "$ACTUATOR_JAR" --server.address="$ADDR.2" --server.port=8080 > "$WORK/actuator.log" 2>&1 &
ACTUATOR_PID=$!

await_up() { # name pid url log: until the URL answers 200 with status UP (3 minutes at most: the machine is shared)
  local name=$1 pid=$2 url=$3 log=$4
  for _ in $(seq 1 900); do
    kill -0 "$pid" 2>/dev/null || { echo "$name exited before answering; its log:" >&2; cat "$log" >&2; exit 1; }
    if curl -sf "$url" 2>/dev/null | grep -q '"status" *: *"UP"'; then
      return 0
    fi
    sleep 0.2
  done
  echo "$name did not answer UP on $url within 3 minutes; its log:" >&2
  cat "$log" >&2
  exit 1
}
await_up Worker "$WORKER_PID" "$WORKER_URL" "$WORK/worker.log"
await_up Actuator "$ACTUATOR_PID" "$ACTUATOR_URL" "$WORK/actuator.log"

HZ=$(getconf CLK_TCK)
run_wrk() { # name url seconds pid: wrk's report in $WORK/name.txt, the server's CPU ticks meanwhile in $WORK/name.cpu
  local t0
  t0=$(awk '{print $14 + $15}' "/proc/$4/stat")
  wrk -t2 -c64 -d"$3"s --latency "$2" > "$WORK/$1.txt"
  echo $(( $(awk '{print $14 + $15}' "/proc/$4/stat") - t0 )) > "$WORK/$1.cpu"
}
rps() { awk '/^Requests\/sec/ {printf "%d", $2}' "$WORK/$1.txt"; }
p99_ms() { # wrk's 99% latency (e.g. 812.00us, 1.20ms, 2.01s) in ms
  awk '$1 == "99%" { v = $2; n = v + 0; if (v ~ /us$/) n /= 1000; else if (v ~ /ms$/) ; else if (v ~ /s$/) n *= 1000; printf "%.2f", n }' "$WORK/$1.txt"
}
cpu_us() { awk -v hz="$HZ" -v secs="$DURATION" -v r="$(rps "$1")" '{ printf "%.1f", $1 / hz * 1e6 / (r * secs) }' "$WORK/$1.cpu"; }
errors() { awk '/Non-2xx|Socket errors/' "$WORK/$1.txt" | tr '\n' ' '; }
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "warming up ${WARMUP}s each (until the JIT has compiled both request paths)..." >&2
run_wrk warm-worker "$WORKER_URL" "$WARMUP" "$WORKER_PID"
run_wrk warm-actuator "$ACTUATOR_URL" "$WARMUP" "$ACTUATOR_PID"

SPRING_BOOT=$(unzip -l "$ACTUATOR_JAR" | grep -o 'spring-boot-[0-9][0-9.]*[0-9]\.jar' | head -1 | sed 's/spring-boot-//; s/\.jar$//')
echo "== $(date -u '+%F %H:%M') UTC, load average $(cut -d' ' -f1-3 /proc/loadavg) at the start, $(nproc) cores"
echo "JDK: $("$PYLON_JAVA" -XshowSettings:properties -version 2>&1 | awk -F' = ' '/java.runtime.version/ {print $2}'); Spring Boot $SPRING_BOOT"
echo "JVM options of both: $JVM_OPTS"
echo "wrk -t2 -c64 -d${DURATION}s --latency, after ${WARMUP}s of warm-up each; rounds interleaved, order alternating"
echo
echo "| round | Worker req/s | Actuator req/s | Worker/Actuator | Worker p99 ms | Actuator p99 ms | Worker CPU us/req | Actuator CPU us/req | errors |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|---|"
W_RPS=(); A_RPS=(); W_P99=(); A_P99=(); W_CPU=(); A_CPU=(); RATIOS=()
for round in $(seq 1 "$ROUNDS"); do
  if [ $((round % 2)) = 1 ]; then
    run_wrk worker "$WORKER_URL" "$DURATION" "$WORKER_PID"
    run_wrk actuator "$ACTUATOR_URL" "$DURATION" "$ACTUATOR_PID"
  else
    run_wrk actuator "$ACTUATOR_URL" "$DURATION" "$ACTUATOR_PID"
    run_wrk worker "$WORKER_URL" "$DURATION" "$WORKER_PID"
  fi
  ratio=$(awk -v w="$(rps worker)" -v a="$(rps actuator)" 'BEGIN { printf "%.2f", w / a }')
  W_RPS+=("$(rps worker)"); A_RPS+=("$(rps actuator)"); W_P99+=("$(p99_ms worker)"); A_P99+=("$(p99_ms actuator)")
  W_CPU+=("$(cpu_us worker)"); A_CPU+=("$(cpu_us actuator)"); RATIOS+=("$ratio")
  echo "| $round | $(rps worker) | $(rps actuator) | $ratio | $(p99_ms worker) | $(p99_ms actuator) | $(cpu_us worker) | $(cpu_us actuator) | $(errors worker)$(errors actuator) |"
done
w=$(median "${W_RPS[@]}"); a=$(median "${A_RPS[@]}")
ratio=$(awk -v w="$w" -v a="$a" 'BEGIN { printf "%.2f", w / a }')
wc=$(median "${W_CPU[@]}"); ac=$(median "${A_CPU[@]}")
echo "| median | $w | $a | $ratio | $(printf '%.2f' "$(median "${W_P99[@]}")") | $(printf '%.2f' "$(median "${A_P99[@]}")") | $wc | $ac | |"
echo
verdict=$(awk -v r="$ratio" 'BEGIN { print (r >= 3.5) ? "met" : "NOT met" }')
echo "Worker/Actuator health req/s, ratio of the medians: $ratio (median of the per-round ratios: $(median "${RATIOS[@]}")); target >= 3.5: $verdict"
# wrk and the other processes of a shared machine take CPU from both servers alike in requests/s; CPU per request is
# what each server spends on one answer, whatever share it got
echo "Actuator/Worker CPU per request, ratio of the medians: $(awk -v w="$wc" -v a="$ac" 'BEGIN { printf "%.2f", a / w }')"
echo "== $(date -u '+%F %H:%M') UTC, load average $(cut -d' ' -f1-3 /proc/loadavg) at the end"
echo "Worker health: $(curl -s "$WORKER_URL" | head -c 300)"
echo "Actuator health: $(curl -s "$ACTUATOR_URL" | head -c 300)"
