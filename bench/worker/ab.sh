#!/usr/bin/env bash
# Two builds of the Worker side by side, for a change on the proxied path: each tree's Worker (one catch-all route)
# pinned to CPU 0 with a pod's JVM options, the upstream nginx (100 B answer) and wrk -t1 -c64 on CPU 1, each Worker
# warmed for 60 s, then rounds interleaved (A, B, A, B...). Per round: requests/s, p90, p99, longest answer and the
# Worker's CPU per request (utime + stime from /proc/<pid>/stat).
#   bench/worker/ab.sh TREE_A TREE_B [seconds-per-round] [rounds]
# OPTS_A, OPTS_B: JVM options for one Worker only (a setting as -Dpylon.worker.access-log=true): the same tree twice
# with a setting on and off.
# BENCH_ADDR: the loopback address every process binds (default 127.0.43.1). LOAD=h2load: the clients speak HTTP/2
# by prior knowledge instead (h2load, 64 connections, one stream each; requests/s and CPU only, h2load gives no
# percentiles). Bounded: 2 minutes of warm-up, then rounds x 2 x seconds-per-round, plus the builds. Needs wrk (or
# h2load), nginx, taskset, a JDK >= 21 (bench/bench-env.sh).
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../bench-env.sh"
. "$ROOT/bench/worker/pinned-worker.sh"
[ $# -ge 2 ] || { echo "usage: bench/worker/ab.sh TREE_A TREE_B [seconds-per-round] [rounds]" >&2; exit 1; }
TREE_A=$(cd "$1" && pwd)
TREE_B=$(cd "$2" && pwd)
DURATION=${3:-10}
ROUNDS=${4:-6}
ADDR=${BENCH_ADDR:-127.0.43.1}
LOAD=${LOAD:-wrk}
case "$LOAD" in wrk|h2load) ;; *) echo "LOAD must be wrk or h2load" >&2; exit 1 ;; esac
bench_needs "$LOAD" nginx taskset curl
bench_work ab
build_worker "$TREE_A" a
build_worker "$TREE_B" b
mkdir -p "$WORK/up/www"
SMALL=$(printf '%099d' 0)
start_upstream "$WORK/up" "$ADDR" 18280 "root $WORK/up/www;
        location = /100b { default_type text/plain; return 200 \"${SMALL}\\n\"; }"
PIDS+=($!)
printf 'routes:\n  - {name: api, pathPrefix: /, upstreams: [http://%s:18280]}\n' "$ADDR" > "$WORK/routes.yaml"
declare -A PORT=([a]=18281 [b]=18282) PID
read -r -a EXTRA_a <<< "${OPTS_A:-}"
read -r -a EXTRA_b <<< "${OPTS_B:-}"
for v in a b; do
  extra="EXTRA_$v[@]"
  PID[$v]=$(start_worker "$v" "$v" "${PORT[$v]}" "$WORK/routes.yaml" "${!extra}")
  PIDS+=("${PID[$v]}")
done
for v in a b; do
  for _ in $(seq 1 900); do curl -sf -o /dev/null "http://$ADDR:${PORT[$v]}/100b" && break; sleep 0.2; done
done
HZ=$(getconf CLK_TCK)
run() { # variant seconds
  local t0 t n
  t0=$(ticks "${PID[$1]}")
  if [ "$LOAD" = h2load ]; then
    taskset -c 1 h2load -c64 -m1 -D"$2" "http://$ADDR:${PORT[$1]}/100b" > "$WORK/run.txt" 2>&1 || true
    t=$(( $(ticks "${PID[$1]}") - t0 ))
    n=$(awk '/^requests:/ {print $8}' "$WORK/run.txt")
    echo "$1 req/s $(awk '/^finished in/ {print $4}' "$WORK/run.txt") succeeded $n" \
      "cpu_us $(awk -v t="$t" -v n="$n" -v hz="$HZ" 'BEGIN { printf "%.1f", t / hz * 1e6 / n }')"
    return
  fi
  taskset -c 1 wrk -t1 -c64 -d"$2"s --latency "http://$ADDR:${PORT[$1]}/100b" > "$WORK/run.txt" 2>&1 || true
  t=$(( $(ticks "${PID[$1]}") - t0 ))
  n=$(awk '/requests in/ {print $1}' "$WORK/run.txt")
  echo "$1 req/s $(awk '/^Requests\/sec/ {print $2}' "$WORK/run.txt") p90 $(awk '$1 == "90%" {print $2}' "$WORK/run.txt")" \
    "p99 $(awk '$1 == "99%" {print $2}' "$WORK/run.txt") longest $(awk '/Latency/ {print $4}' "$WORK/run.txt")" \
    "cpu_us $(awk -v t="$t" -v n="$n" -v hz="$HZ" 'BEGIN { printf "%.1f", t / hz * 1e6 / n }')"
}
for v in a b; do for _ in 1 2 3 4 5 6; do run "$v" 10 > /dev/null; done; done
echo "A: $TREE_A ($(git -C "$TREE_A" log --oneline -1 | cut -c1-60)); B: $TREE_B ($(git -C "$TREE_B" log --oneline -1 | cut -c1-60))"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for _ in $(seq 1 "$ROUNDS"); do for v in a b; do run "$v" "$DURATION"; done; done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
