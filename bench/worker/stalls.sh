#!/usr/bin/env bash
# The Worker's tail on one core against a bare Helidon SE server's (BareHelidon.java: defaults, one route answering 4
# bytes): both JVMs pinned to CPU 0 with a Worker pod's JVM options, the upstream (nginx, 100-byte answer) and wrk on
# CPU 1. Each round, interleaved, `wrk -t1 -c64` on
#   bare      the bare server's /ping, the reference;
#   health    the Worker's /platform/management/health;
#   gateway   the Worker's catch-all route to the upstream's /100b, with a second `wrk -t1 -c1` on the Worker's health
#             meanwhile (health while the gateway carries load);
#   bare+     the bare server's /ping, with a second `wrk -t1 -c1` on it meanwhile (the same shape on the reference).
# Prints p99 and the longest answer per case (medians of the rounds), each p99 against the bare server's, and the
# longest GC pause and safepoint each JVM logged during its measured runs (-Xlog:gc,safepoint).
#   bench/worker/stalls.sh [seconds-per-run] [rounds]
# BENCH_ADDR: the loopback address every process binds (default 127.0.40.2); WORKER_JAVA_OPTS replaces the JVM
# options of both. Bounded: about 4 x rounds x seconds plus the warm-up (3 x 3-18 x seconds); only calls BENCH_ADDR.
# Needs wrk, nginx, taskset and a JDK >= 21. Prints a Markdown table.
set -euo pipefail
trap 'echo "bench/worker/stalls.sh: failed at line $LINENO: $BASH_COMMAND" >&2' ERR
# shellcheck source=bench/bench-env.sh
. "$(dirname "${BASH_SOURCE[0]}")/../bench-env.sh"
# shellcheck source=bench/worker/pinned-worker.sh
. "$ROOT/bench/worker/pinned-worker.sh"
DURATION=${1:-15}
ROUNDS=${2:-3}
ADDR=${BENCH_ADDR:-127.0.40.2}
bench_needs wrk nginx taskset curl
JVM_OPTS=${WORKER_JAVA_OPTS:-$PYLON_POD_JVM_OPTS $(pylon_pod_heap_opts worker)}
UPSTREAM_PORT=18380
WORKER_PORT=18381
BARE_PORT=18382
bench_work stalls
time_limit 1800 bench/worker/stalls.sh; PIDS+=($!)

build_worker "$ROOT" worker "$ROOT/bench/worker/BareHelidon.java"

mkdir -p "$WORK/up"
SMALL=$(printf '%099d' 0)
start_upstream "$WORK/up" "$ADDR" "$UPSTREAM_PORT" "location = /100b { default_type text/plain; return 200 \"${SMALL}\\n\"; }"
PIDS+=($!)

cat > "$WORK/routes.yaml" <<ROUTES
routes:
  - {name: api, pathPrefix: /, upstreams: [http://$ADDR:$UPSTREAM_PORT]}
ROUTES
WORKER_PID=$(start_worker worker worker $WORKER_PORT "$WORK/routes.yaml" -Xlog:gc,safepoint:file="$WORK/worker.gc":uptime)
PIDS+=($WORKER_PID)
# shellcheck disable=SC2086
taskset -c 0 "$JAVA_HOME/bin/java" $JVM_OPTS -Xlog:gc,safepoint:file="$WORK/bare.gc":uptime \
  -cp "$WORK/worker.classes:$(cat "$WORK/worker.cp")" BareHelidon "$ADDR" "$BARE_PORT" > "$WORK/bare.log" 2>&1 &
BARE_PID=$!
PIDS+=($BARE_PID)

BARE_URL="http://$ADDR:$BARE_PORT/ping"
HEALTH_URL="http://$ADDR:$WORKER_PORT/platform/management/health"
GATEWAY_URL="http://$ADDR:$WORKER_PORT/100b"
await() { # url log: 3 minutes at most (a JVM starts slowly on a loaded core)
  for _ in $(seq 1 900); do
    curl -sf -o /dev/null "$1" && return 0
    sleep 0.2
  done
  echo "nothing answers on $1; log:" >&2; tail -20 "$2" >&2; exit 1
}
await "http://$ADDR:$UPSTREAM_PORT/100b" "$WORK/up/error.log"
await "$BARE_URL" "$WORK/bare.log"
await "$HEALTH_URL" "$WORK/worker.log"
await "$GATEWAY_URL" "$WORK/worker.log"

wrk_run() { # name url connections seconds
  taskset -c 1 wrk -t1 -c"$3" -d"$4"s --latency "$2" > "$WORK/$1.txt" 2>&1 || true
}
# the longest GC pause and safepoint (ms) a JVM logged after line FROM of its log
gc_marks() { # file from
  tail -n +"$(($2 + 1))" "$1" | awk '
    /Pause (Young|Full)/ { p = $NF; sub(/ms$/, "", p); if (p + 0 > maxp) maxp = p + 0 }
    /Safepoint.*Total:/ { for (i = 1; i <= NF; i++) if ($i == "Total:") { t = $(i + 1) / 1e6; if (t > maxs) maxs = t } }
    END { printf "%.2f %.2f", maxp, maxs }'
}
# one case: the loaded wrk and, when given, a probe wrk at once; the CPU ticks of the server, GC marks
measure() { # name url [probe-url]
  local server=$WORKER_PID gc=$WORK/worker.gc from t0 probe=
  [ "$2" = "$BARE_URL" ] && server=$BARE_PID gc=$WORK/bare.gc
  from=$(wc -l < "$gc"); t0=$(ticks "$server")
  if [ -n "${3:-}" ]; then wrk_run "$1-probe" "$3" 1 "$DURATION" & probe=$!; fi
  wrk_run "$1" "$2" 64 "$DURATION"
  [ -n "$probe" ] && wait "$probe"
  echo "$(awk '/requests in/ {print $1}' "$WORK/$1.txt") $(( $(ticks "$server") - t0 )) $(gc_marks "$gc" "$from")" \
    > "$WORK/$1.stats"
}

# Both JVMs until their JIT compilers are idle: steps of one run per case, at least 3, until the compiler threads of
# each took under 2% of its CPU in a step, or after 18 (on a busy machine C2 gets little CPU: a JVM still compiling
# costs several times its compiled CPU per request, step after step)
echo "warming up (until the JIT compilers of both JVMs are idle)..." >&2
for step in $(seq 1 18); do
  w0=$(ticks $WORKER_PID); wj0=$(jit_ticks $WORKER_PID); b0=$(ticks $BARE_PID); bj0=$(jit_ticks $BARE_PID)
  measure warm-bare "$BARE_URL"; measure warm-health "$HEALTH_URL"; measure warm "$GATEWAY_URL" "$HEALTH_URL"
  w=$(( $(ticks $WORKER_PID) - w0 )); wj=$(( $(jit_ticks $WORKER_PID) - wj0 ))
  b=$(( $(ticks $BARE_PID) - b0 )); bj=$(( $(jit_ticks $BARE_PID) - bj0 ))
  echo "  warm-up step $step: compiling $wj of the Worker's $w CPU ticks, $bj of the bare server's $b" >&2
  if [ "$step" -ge 3 ] && [ $((wj * 50)) -le "$w" ] && [ $((bj * 50)) -le "$b" ]; then break; fi
done

LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
for round in $(seq 1 "$ROUNDS"); do
  measure "bare-$round" "$BARE_URL"
  measure "health-$round" "$HEALTH_URL"
  measure "gateway-$round" "$GATEWAY_URL" "$HEALTH_URL"
  measure "bare+-$round" "$BARE_URL" "$BARE_URL"
  echo "round $round done" >&2
done
LOAD_AFTER=$(cut -d' ' -f1-3 /proc/loadavg)

ms() { # wrk's latency (812.00us, 1.20ms, 2.01s) in ms
  awk -v v="$1" 'BEGIN { n = v + 0; if (v ~ /us$/) n /= 1000; else if (v ~ /ms$/) n += 0; else if (v ~ /s$/) n *= 1000; printf "%.2f", n }'
}
p99() { ms "$(awk '$1 == "99%" {print $2}' "$WORK/$1.txt")"; }
longest() { ms "$(awk '$1 == "Latency" {print $4}' "$WORK/$1.txt")"; }
rps() { awk '/^Requests\/sec/ {printf "%.0f", $2}' "$WORK/$1.txt"; }
errors() {
  awk '/Socket errors/ { gsub(",", ""); n += $4 + $6 + $8 + $10 } /Non-2xx/ { n += $NF } END { print n + 0 }' "$WORK/$1.txt"
}
median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
col() { # case function
  for round in $(seq 1 "$ROUNDS"); do
    case "$1" in *-probe) "$2" "${1%-probe}-$round-probe" ;; *) "$2" "$1-$round" ;; esac
    echo
  done | grep -v '^$' | median
}
stat_col() { # case field (1 requests, 2 ticks, 3 max GC pause, 4 max safepoint)
  for round in $(seq 1 "$ROUNDS"); do awk -v f="$2" '{print $f}' "$WORK/${1%-probe}-$round.stats"; done | sort -g | tail -1
}
BARE_P99=$(col bare p99); BARE_PROBE_P99=$(col bare+-probe p99)
echo
echo "| case | load | req/s | p99 ms | x bare | longest ms (worst round) | longest GC pause / safepoint ms | errors |"
echo "|---|---|---:|---:|---:|---:|---:|---:|"
row() { # label load case reference
  local c=$3 errs=0 round longest_all
  for round in $(seq 1 "$ROUNDS"); do
    case "$c" in *-probe) errs=$((errs + $(errors "${c%-probe}-$round-probe"))) ;; *) errs=$((errs + $(errors "$c-$round"))) ;; esac
  done
  longest_all=$(for round in $(seq 1 "$ROUNDS"); do
    case "$c" in *-probe) longest "${c%-probe}-$round-probe" ;; *) longest "$c-$round" ;; esac; echo; done | grep -v '^$' | sort -g | tail -1)
  printf '| %s | %s | %s | %s | %.2f | %s | %s / %s | %s |\n' "$1" "$2" "$(col "$c" rps)" "$(col "$c" p99)" \
    "$(awk -v a="$(col "$c" p99)" -v b="$4" 'BEGIN { print a / b }')" "$longest_all" "$(stat_col "$c" 3)" "$(stat_col "$c" 4)" "$errs"
}
row "bare Helidon /ping" "-c64" bare "$BARE_P99"
row "Worker health" "-c64" health "$BARE_P99"
row "Worker gateway (100 B)" "-c64" gateway "$BARE_P99"
row "Worker health while the gateway carries -c64" "-c1" gateway-probe "$BARE_PROBE_P99"
row "bare Helidon /ping while /ping carries -c64" "-c1" bare+-probe "$BARE_PROBE_P99"
echo
echo "Medians of $ROUNDS interleaved rounds of ${DURATION} s (longest answer: the worst round); both JVMs on CPU 0 with: $JVM_OPTS;"
echo "wrk -t1 and the upstream nginx on CPU 1. The -c1 rows compare with the bare server's -c1 probe, the others with its -c64."
echo "Load average before/after: $LOAD_BEFORE / $LOAD_AFTER on $(nproc) CPUs (shared machine)."
echo "wrk's p99 adds the requests a slow answer kept from being sent (coordinated omission): one pause of the process"
echo "moves it by hundreds of ms. bench/worker/saturation.sh gives each request's own time."
