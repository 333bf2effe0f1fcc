#!/usr/bin/env bash
# Issue 2 benchmark: per module, time from process start to the first 200 on health, RSS at idle, and health
# requests/s with wrk (-t2 -c64) on loopback after 5 s of warm-up. Each pod runs exactly as `./pylon run` starts it (same JVM options,
# class-data-sharing archive warmed by one earlier start), on its own 127.0.0.x address.
# Usage: bench/startup/run.sh [seconds-of-wrk]   (needs wrk: apt-get install wrk)
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"
. scripts/jdk.sh
. scripts/pod-jvm.sh
pylon_find_jdk
DURATION=${1:-10}
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install wrk" >&2; exit 1; }
[ -d distribution/target/pylon/lib ] || ./pylon settings >/dev/null
LIB="$ROOT/distribution/target/pylon/lib"
CDS="$ROOT/distribution/target/pylon/cds"
mkdir -p "$CDS"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

start_pod() { # module address port -> pid; timings go to $WORK
  local module=$1 addr=$2 port=$3
  # shellcheck disable=SC2046,SC2086
  "$PYLON_JAVA" $PYLON_POD_JVM_OPTS $(pylon_pod_cds_opts "$CDS/$module.jsa" "$LIB") \
    -cp "$LIB/*" io.pylon.distribution.PylonCli run "$module" --pod-name "bench-$module" --bind "$addr" --port "$port" \
    > "$WORK/$module.log" 2>&1 &
  echo $!
}

stop_pod() { # pid: SIGTERM, then wait until it is gone (it is not this shell's child)
  kill "$1" 2>/dev/null || true
  while kill -0 "$1" 2>/dev/null; do sleep 0.05; done
}

first_200_ms() { # url t0(ns) -> ms
  local url=$1 t0=$2
  until curl -sf -o /dev/null "$url"; do sleep 0.005; done
  echo $(( ($(date +%s%N) - t0) / 1000000 ))
}

printf '| module | first 200 on health (ms, median of 3) | RSS idle (MB) | health req/s (wrk -t2 -c64 -d%ss) | health p99 | version req/s (same wrk) |\n|---|---|---|---|---|---|\n' "$DURATION"
i=20
for spec in manager:8080 worker:8091 cache:8090 integration:8092 portal:8080; do
  module=${spec%%:*}; port=${spec##*:}; addr="127.0.0.$i"; i=$((i+1))
  url="http://$addr:$port/platform/management/health"
  # warm the class-data-sharing archive once (it is written when the JVM exits)
  pid=$(start_pod "$module" "$addr" "$port"); first_200_ms "$url" "$(date +%s%N)" >/dev/null; stop_pod "$pid"
  times=()
  for run in 1 2 3; do
    t0=$(date +%s%N); pid=$(start_pod "$module" "$addr" "$port")
    times+=("$(first_200_ms "$url" "$t0")")
    if [ "$run" -lt 3 ]; then stop_pod "$pid"; fi
  done
  median=$(printf '%s\n' "${times[@]}" | sort -n | sed -n 2p)
  sleep 3
  rss=$(( $(awk '/VmRSS/{print $2}' "/proc/$pid/status") / 1024 ))
  # 5 s of warm-up so that the JIT has compiled the request path: steady-state throughput, not the first seconds
  wrk -t2 -c64 -d5s "$url" > /dev/null
  wrk -t2 -c64 -d5s "${url%/health}/version" > /dev/null
  wrk -t2 -c64 -d"${DURATION}s" --latency "$url" > "$WORK/wrk-$module.txt"
  rps=$(awk '/Requests\/sec/{printf "%d", $2}' "$WORK/wrk-$module.txt")
  p99=$(awk '/ 99%/{print $2}' "$WORK/wrk-$module.txt")
  wrk -t2 -c64 -d"${DURATION}s" "${url%/health}/version" > "$WORK/wrk-version-$module.txt"
  vrps=$(awk '/Requests\/sec/{printf "%d", $2}' "$WORK/wrk-version-$module.txt")
  printf '| %s | %s (runs: %s) | %s | %s | %s | %s |\n' "$module" "$median" "${times[*]}" "$rss" "$rps" "$p99" "$vrps"
  stop_pod "$pid"
done
