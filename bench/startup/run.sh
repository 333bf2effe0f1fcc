#!/usr/bin/env bash
# Start-up benchmark: per module, the time from `./pylon run <module>` (the launcher as a user runs it: JDK
# lookup, build check, JVM options, JVM) to the first 200 on health, median of ROUNDS starts, with each start-up cache
# the launcher knows, rounds interleaved so that the machine's noise falls on all alike:
#   aot   the default on JDK 25: the AOT cache (trained by one earlier start, written at its exit)
#   cds   the class-data-sharing archive (the default before JDK 25), through PYLON_POD_JAVA_OPTS
#   aot-serial  an AOT cache with the serial collector and a fixed young generation (the Manager's options before it
#         moved to ZGC; the other modules' are that already), through PYLON_POD_JAVA_OPTS
#   aot-g1  an AOT cache with G1 (pause goal 5 ms, no fixed young generation), through PYLON_POD_JAVA_OPTS
#   aot-zgc an AOT cache with generational ZGC, through PYLON_POD_JAVA_OPTS
# then, with the default, RSS at idle and health requests/s with wrk (-t2 -c64) after 5 s of warm-up.
#   bench/startup/run.sh [seconds-of-wrk, 0: none]   (needs wrk)
#   ADDR=127.0.35 (module i binds ADDR.(20+i)), ROUNDS=5, MODULES="manager worker cache integration portal",
#   CACHES="aot cds"
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"
. scripts/jdk.sh
. scripts/pod-jvm.sh
pylon_find_jdk
DURATION=${1:-10}
ADDR=${ADDR:-127.0.35}
ROUNDS=${ROUNDS:-5}
MODULES=${MODULES:-manager worker cache integration portal}
CACHES=${CACHES:-aot cds}
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install wrk" >&2; exit 1; }
./pylon settings >/dev/null   # builds the distribution first when the sources changed
LIB="$ROOT/distribution/target/pylon/lib"
WORK=$(mktemp -d)
POD=
trap '[ -n "$POD" ] && kill "$POD" 2>/dev/null; rm -rf "$WORK"' EXIT
[ "$(pylon_java_major "$PYLON_JAVA")" -ge 25 ] || CACHES=${CACHES//aot/}

start_pod() { # cache module address port: the launcher in the background
  local cache=$1 module=$2 addr=$3 port=$4 opts
  case $cache in
    aot) opts=() ;;
    # shellcheck disable=SC2207
    cds) opts=(PYLON_POD_JAVA_OPTS="$(pylon_pod_jvm_opts "$module") $(pylon_pod_cds_opts "$WORK/$module.jsa" "$LIB")") ;;
    aot-serial)
      local heap mx jvm
      heap=$(pylon_pod_heap_opts "$module"); mx=${heap##*-Xmx}; mx=${mx%%m*}
      case "$heap" in *-Xmn*) jvm="$PYLON_POD_JVM_OPTS $heap" ;; *) jvm="$PYLON_POD_JVM_OPTS $heap -Xmn$((mx / 4))m" ;; esac
      mkdir -p "$WORK/cds-serial"
      opts=(PYLON_POD_JAVA_OPTS="$jvm $(pylon_pod_startup_opts "$WORK/cds-serial" "$module" "$LIB" "$(pylon_java_major "$PYLON_JAVA")" "$jvm")") ;;
    aot-g1 | aot-zgc)
      local jvm heap
      heap=$(pylon_pod_heap_opts "$module"); heap=${heap% -Xmn*}
      case $cache in
        aot-g1) jvm="-XX:+UseG1GC -XX:MaxGCPauseMillis=5 $PYLON_POD_BASE_JVM_OPTS $heap" ;;
        aot-zgc) jvm="-XX:+UseZGC $PYLON_POD_BASE_JVM_OPTS $heap" ;;
      esac
      mkdir -p "$WORK/cds-$cache"
      opts=(PYLON_POD_JAVA_OPTS="$jvm $(pylon_pod_startup_opts "$WORK/cds-$cache" "$module" "$LIB" "$(pylon_java_major "$PYLON_JAVA")" "$jvm")") ;;
  esac
  # the Cache refuses to start without an environment ID (its grid's cluster name comes from it)
  env "${opts[@]}" PYLON_DATA_DIR="$WORK/data-$module" PYLON_ENVIRONMENT_ID=0123456789abcdef01234567 \
    ./pylon run "$module" --pod-name "bench-$module" --bind "$addr" --port "$port" >> "$WORK/$module.log" 2>&1 &
  POD=$!
}

stop_pod() { # SIGTERM, then wait until the JVM is gone (a training start writes its cache now)
  kill "$POD" 2>/dev/null || true
  wait "$POD" 2>/dev/null || true
  POD=
}

first_200_ms() { # url t0(ns) -> ms; fails naming the pod's log when the pod exits first
  local url=$1 t0=$2
  until curl -sf -o /dev/null "$url"; do
    kill -0 "$POD" 2>/dev/null || { echo "startup: the pod exited before answering; its log: $(tail -3 "$WORK"/*.log)" >&2; exit 1; }
    sleep 0.005
  done
  echo $(( ($(date +%s%N) - t0) / 1000000 ))
}

median() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "== $(date -u +%FT%TZ) load average:$(uptime | sed 's/.*load average://'), $(nproc) cores, JDK $(pylon_java_major "$PYLON_JAVA")"
header="| module |"; rule="|---|"
for cache in $CACHES; do header="$header first 200, $cache (ms, median of $ROUNDS) |"; rule="$rule---|"; done
echo "$header RSS idle (MB) | health req/s (wrk -t2 -c64 -d${DURATION}s) | health p99 |"
echo "$rule---|---|---|"
i=20
for module in $MODULES; do
  case $module in manager|portal) port=8080 ;; worker) port=8091 ;; cache) port=8090 ;; integration) port=8092 ;; esac
  addr="$ADDR.$i"; i=$((i+1))
  url="http://$addr:$port/platform/management/health"
  rm -f "$ROOT/distribution/target/pylon/cds/$module"-*.aot
  for cache in $CACHES; do # training starts: each writes its cache at exit
    start_pod "$cache" "$module" "$addr" "$port"; first_200_ms "$url" "$(date +%s%N)" >/dev/null; stop_pod
  done
  declare -A times=()
  for round in $(seq 1 "$ROUNDS"); do
    for cache in $CACHES; do
      t0=$(date +%s%N); start_pod "$cache" "$module" "$addr" "$port"
      times[$cache]="${times[$cache]:-} $(first_200_ms "$url" "$t0")"
      stop_pod
    done
  done
  row="| $module |"
  for cache in $CACHES; do
    # shellcheck disable=SC2086
    row="$row $(median ${times[$cache]}) (runs:${times[$cache]}) |"
  done
  unset times
  start_pod aot "$module" "$addr" "$port"; first_200_ms "$url" "$(date +%s%N)" >/dev/null
  sleep 3
  pid=$(pgrep -P "$POD" java || echo "$POD")
  rss=$(( $(awk '/VmRSS/{print $2}' "/proc/$pid/status") / 1024 ))
  rps=-; p99=-
  if [ "$DURATION" != 0 ]; then
    # 5 s of warm-up so that the JIT has compiled the request path: steady-state throughput, not the first seconds
    wrk -t2 -c64 -d5s "$url" > /dev/null
    wrk -t2 -c64 -d"${DURATION}s" --latency "$url" > "$WORK/wrk-$module.txt"
    rps=$(awk '/Requests\/sec/{printf "%d", $2}' "$WORK/wrk-$module.txt")
    p99=$(awk '/ 99%/{print $2}' "$WORK/wrk-$module.txt")
  fi
  echo "$row $rss | $rps | $p99 |"
  stop_pod
done
echo "== $(date -u +%FT%TZ) load average:$(uptime | sed 's/.*load average://')"
