#!/usr/bin/env bash
# Memory under load, pods started by `./pylon run` exactly as a user starts them:
#   manager-tokens  a 60 s load of 4 clients fetching tokens with the right password (wrk, keep-alive): the Manager's
#                   RSS before, its peak (VmHWM) and after, and from the GC log of the load's seconds (start-up's
#                   collections excluded): the collector's young pauses and all its pauses (Serial, Parallel, G1,
#                   ZGC, Shenandoah lines) p50/p99/max, and every safepoint's wall-clock total (reaching, running,
#                   leaving: what the application saw), then the young pauses of the pod's whole life
#   worker-idle     a Worker's idle RSS, its peak under 20 s of health + diagnostics load (wrk -c64), and its RSS
#                   every 10 s for a minute after the load ends
# The wrong-password flood is bench/hostile/login-flood.sh (it prints the peak RSS the same way).
#   bench/memory/run.sh [manager-tokens] [worker-idle]      (from anywhere; needs wrk)
#   ADDR=127.0.35 (pods bind ADDR.1 and ADDR.2), TOKEN_SECONDS=60, TOKEN_CLIENTS=4, EXTRA_OPTS (added to the pods'
#   JVM options through JAVA_TOOL_OPTIONS), POD_OPTS (replaces the pods' JVM options: PYLON_POD_JAVA_OPTS, e.g. to
#   compare collectors: bench/memory/collectors.sh), GC_LOG_COPY (a file to keep the Manager's GC log in)
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"
ADDR=${ADDR:-127.0.35}
TOKEN_SECONDS=${TOKEN_SECONDS:-60}
TOKEN_CLIENTS=${TOKEN_CLIENTS:-4}
SCENARIOS=${*:-manager-tokens worker-idle}
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install wrk" >&2; exit 1; }
./pylon settings >/dev/null   # builds the distribution first when the sources changed
OUT=$(mktemp -d)
POD=
trap '[ -n "$POD" ] && kill "$POD" 2>/dev/null; rm -rf "$OUT"' EXIT
PASSWORD="bench-$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')"
ID=0123456789abcdef01234567

cache_mode() { # whether the pod ran with its AOT cache or recorded one (a recording JVM uses more memory)
  case "$(tr '\0' ' ' < "/proc/$POD/cmdline")" in
    *AOTCacheOutput=*) echo "start-up cache: recording" ;; *AOTCache=*) echo "start-up cache: AOT" ;; *) echo "start-up cache: CDS" ;;
  esac
}
stop_pod() { kill "$POD"; wait "$POD" 2>/dev/null || true; POD=; }
start_pod() { # module host port
  local module=$1 host=$2 port=$3
  rm -rf "$OUT/data"
  env ${POD_OPTS+PYLON_POD_JAVA_OPTS="$POD_OPTS"} PYLON_DATA_DIR="$OUT/data" PYLON_MANAGER_ADMIN_PASSWORD="$PASSWORD" PYLON_ENVIRONMENT_ID=$ID \
    JAVA_TOOL_OPTIONS="-Xlog:gc,gc+phases,safepoint:file=$OUT/gc.log ${EXTRA_OPTS:-}" \
    ./pylon run "$module" --pod-name "mem-$module" --bind "$host" --port "$port" >"$OUT/pod.log" 2>&1 &
  POD=$!
  for _ in $(seq 1 1200); do
    if curl -sf "http://$host:$port/platform/management/health/live" >/dev/null 2>&1; then
      # the first start of a library records its AOT cache (more memory, slower): measure the start after it
      if [ "$(cache_mode)" = "start-up cache: recording" ]; then stop_pod; start_pod "$@"; fi
      return 0
    fi
    sleep 0.1
  done
  cat "$OUT/pod.log"; exit 1
}
mb() { awk -v k="$1:" '$1 == k {printf "%.0f", $2 / 1024}' "/proc/$POD/status"; }
stats() { # LABEL: count, p50, p99 and max of the numbers on stdin (milliseconds)
  sort -n | awk -v label="$1" '
    { v[NR] = $1 } END { if (NR == 0) { printf "%s: none", label; exit }
      i = int(NR * 0.99); if (i < 1) i = 1; if (i < NR * 0.99) i++
      printf "%s: %d, p50 %.2f ms, p99 %.2f ms, max %.2f ms", label, NR, v[int((NR + 1) / 2)], v[i], v[NR] }'
}
# pauses FILE: the collector's own pause lines ("Pause Young (Allocation Failure) 73M->35M(78M) 5.629ms"; ZGC
# "y: Pause Mark Start 0.026ms", its young generation "y:"/"Y:"; Shenandoah "Pause Init Mark 0.036ms", one
# generation), then every safepoint's total ("Safepoint "X", ... Total: 123456 ns")
young_pauses() {
  grep -E 'Pause .*[0-9.]+ms$' "$1" | grep -E 'Pause Young| [yY]: Pause' | sed 's/.* \([0-9.]*\)ms$/\1/' | stats "young pauses"
}
pauses() {
  local log=$1
  young_pauses "$log"
  echo -n "; "
  grep -E 'Pause .*[0-9.]+ms$' "$log" | sed 's/.* \([0-9.]*\)ms$/\1/' | stats "all GC pauses"
  echo -n "; "
  grep 'Safepoint "' "$log" | sed 's/.*Total: \([0-9]*\) ns.*/\1/' | awk '{ printf "%.3f\n", $1 / 1e6 }' | stats "safepoints"
}
echo "== $(date -u +%FT%TZ) load average:$(uptime | sed 's/.*load average://'), $(nproc) cores"

for scenario in $SCENARIOS; do
  case $scenario in
    manager-tokens)
      start_pod manager "$ADDR.1" 8080
      cat > "$OUT/token.lua" <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/x-www-form-urlencoded"
wrk.body = "grant_type=client_credentials&client_id=admin&client_secret=$PASSWORD"
LUA
      sleep 2
      before=$(mb VmRSS)
      mark=$(wc -l < "$OUT/gc.log")
      ticks=$(awk '{print $14 + $15}' "/proc/$POD/stat")   # the pod's user + system CPU time, in clock ticks
      wrk -t"$TOKEN_CLIENTS" -c"$TOKEN_CLIENTS" -d"${TOKEN_SECONDS}s" --latency -s "$OUT/token.lua" \
        "http://$ADDR.1:8080/apiops/auth/token" > "$OUT/wrk.txt"
      tail -n +"$((mark + 1))" "$OUT/gc.log" > "$OUT/gc-load.log"
      cpu=$(awk -v t="$(( $(awk '{print $14 + $15}' "/proc/$POD/stat") - ticks ))" -v hz="$(getconf CLK_TCK)" \
        -v n="$(awk '/requests in/{print $1}' "$OUT/wrk.txt")" 'BEGIN {printf "%.1f s, %.1f ms per token", t / hz, t / hz * 1000 / n}')
      echo "-- manager-tokens ($TOKEN_CLIENTS clients, ${TOKEN_SECONDS}s, load average:$(uptime | sed 's/.*load average://'))"
      echo "tokens/s $(awk '/Requests\/sec/{print $2}' "$OUT/wrk.txt"), p99 $(awk '/ 99%/{print $2}' "$OUT/wrk.txt"),$(grep -h 'Non-2xx' "$OUT/wrk.txt" || echo ' all 2xx')"
      echo "rss before=${before}MB peak=$(mb VmHWM)MB after=$(mb VmRSS)MB; pod CPU during the load $cpu; $(cache_mode)"
      echo "during the load: $(pauses "$OUT/gc-load.log")"
      echo "whole life: $(young_pauses "$OUT/gc.log")"
      [ -z "${GC_LOG_COPY:-}" ] || cp "$OUT/gc.log" "$GC_LOG_COPY"
      stop_pod
      ;;
    worker-idle)
      start_pod worker "$ADDR.2" 8091
      sleep 5
      idle=$(mb VmRSS)
      base="http://$ADDR.2:8091/platform"
      wrk -t2 -c64 -d10s "$base/management/health" >/dev/null
      wrk -t2 -c64 -d10s -H "Authorization: $ID" "$base/diagnostics/jvm?internal=true" >/dev/null
      loaded=$(mb VmRSS)
      echo "-- worker-idle (load average:$(uptime | sed 's/.*load average://'))"
      line="rss idle=${idle}MB peak=$(mb VmHWM)MB end-of-load=${loaded}MB; after the load:"
      for s in 10 20 30 40 50 60; do
        sleep 10
        line="$line ${s}s=$(mb VmRSS)MB"
      done
      echo "$line; $(cache_mode)"
      stop_pod
      ;;
    *) echo "unknown scenario $scenario" >&2; exit 2 ;;
  esac
done
