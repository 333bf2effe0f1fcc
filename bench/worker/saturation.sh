#!/usr/bin/env bash
# Pauses of a saturated single carrier, without coordinated-omission correction. The Worker (its catch-all route to an
# upstream nginx answering 100 B) and a bare Helidon SE server (BareHelidon.java, /ping) are each started twice, pinned
# to CPU 0 with a pod's JVM options: with the JDK's default poller mode (virtual-thread pollers) and with
# -Djdk.pollerMode=1 (platform poller threads). h2load -t1 on CPU 1, beside the upstream, drives 64 connections closed
# loop (saturation), then at 70% of the rate that run reached. Each request's time comes from h2load's log, so one
# pause of the whole process counts once per request it held; wrk instead adds the requests a pause kept from being
# sent (its latency correction), so one 300 ms pause in a 10 s run moves wrk's p99 by hundreds of milliseconds.
# The Worker's health endpoint is measured too (default mode). Per case, medians of the rounds: requests/s, p50, p99,
# p99.9, and the longest answer of the worst round.
#   bench/worker/saturation.sh [seconds-per-run] [rounds]
# BENCH_ADDR: the loopback address every process binds (default 127.0.43.1). Bounded: the build, a warm-up of 3 runs per
# server, then rounds x 10 runs. Needs h2load (nghttp2-client), nginx, taskset, curl and a JDK >= 21.
set -euo pipefail
trap 'echo "bench/worker/saturation.sh: failed at line $LINENO: $BASH_COMMAND" >&2' ERR
# shellcheck source=bench/bench-env.sh
. "$(dirname "${BASH_SOURCE[0]}")/../bench-env.sh"
# shellcheck source=bench/worker/pinned-worker.sh
. "$ROOT/bench/worker/pinned-worker.sh"
DURATION=${1:-10}
ROUNDS=${2:-3}
ADDR=${BENCH_ADDR:-127.0.43.1}
bench_needs h2load nginx taskset curl
JVM_OPTS="$PYLON_POD_JVM_OPTS $(pylon_pod_heap_opts worker)"
UPSTREAM_PORT=18680
bench_work saturation
time_limit $((900 + (3 + ROUNDS * 2) * 5 * (DURATION + 2))) bench/worker/saturation.sh; PIDS+=($!)

build_worker "$ROOT" worker "$ROOT/bench/worker/BareHelidon.java"
SMALL=$(printf '%099d' 0)
start_upstream "$WORK/up" "$ADDR" "$UPSTREAM_PORT" "location = /100b { default_type text/plain; return 200 \"${SMALL}\\n\"; }"
PIDS+=($!)
printf 'routes:\n  - {name: api, pathPrefix: /, upstreams: [http://%s:%s]}\n' "$ADDR" "$UPSTREAM_PORT" > "$WORK/routes.yaml"

SERVERS="worker worker-p1 bare bare-p1"
declare -A URL
port=$UPSTREAM_PORT
for server in $SERVERS; do
  port=$((port + 1))
  poller=
  case "$server" in *-p1) poller=-Djdk.pollerMode=1 ;; esac
  case "$server" in
    worker*)
      PIDS+=("$(start_worker "$server" worker "$port" "$WORK/routes.yaml" $poller)")
      URL[$server]="http://$ADDR:$port/100b"
      if [ "$server" = worker ]; then URL[health]="http://$ADDR:$port/platform/management/health"; fi ;;
    bare*)
      # shellcheck disable=SC2086
      taskset -c 0 "$JAVA_HOME/bin/java" $JVM_OPTS $poller -cp "$WORK/worker.classes:$(cat "$WORK/worker.cp")" \
        BareHelidon "$ADDR" "$port" > "$WORK/$server.log" 2>&1 &
      PIDS+=($!)
      URL[$server]="http://$ADDR:$port/ping" ;;
  esac
done
for server in $SERVERS; do
  for _ in $(seq 1 900); do curl -sf -o /dev/null "${URL[$server]}" && continue 2; sleep 0.2; done
  echo "nothing answers on ${URL[$server]}; log:" >&2; tail -20 "$WORK/$server.log" >&2; exit 1
done

run() { # name url [requests/s per connection]: h2load's summary in NAME.txt, one line per request in NAME.log
  rm -f "$WORK/$1.log"
  taskset -c 1 h2load --h1 -t1 -c64 -m1 -D "$DURATION" ${3:+--rps=$3} --log-file="$WORK/$1.log" "$2" \
    > "$WORK/$1.txt" 2>&1 || true
}
rate() { awk '/^finished in/ { print int($4) }' "$WORK/$1.txt"; }
# p50 p99 p99.9 longest (ms) of a run's log: its third column is each request's time in microseconds
times() {
  cut -f3 "$WORK/$1.log" | sort -n | awk '{ v[NR] = $1 } END {
    printf "%.2f %.2f %.2f %.1f", v[int(NR * 0.5) + 1] / 1000, v[int(NR * 0.99) + 1] / 1000, v[int(NR * 0.999) + 1] / 1000, v[NR] / 1000 }'
}
failed() { awk '/^requests:/ { gsub(",", ""); print $10 + $12 + $14 }' "$WORK/$1.txt"; }

echo "warming up..." >&2
CASES="worker health worker-p1 bare bare-p1"
for step in 1 2 3; do for server in $CASES; do run "warm-$server" "${URL[$server]}"; done; done
LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
for round in $(seq 1 "$ROUNDS"); do
  for server in $CASES; do
    run "$server-full-$round" "${URL[$server]}"
    per_connection=$(( $(rate "$server-full-$round") * 7 / 10 / 64 ))
    run "$server-70-$round" "${URL[$server]}" "$per_connection"
    echo "$(rate "$server-full-$round") $(times "$server-full-$round") $(failed "$server-full-$round")" > "$WORK/$server-full-$round.row"
    echo "$(rate "$server-70-$round") $(times "$server-70-$round") $(failed "$server-70-$round")" > "$WORK/$server-70-$round.row"
  done
  echo "round $round done" >&2
done
LOAD_AFTER=$(cut -d' ' -f1-3 /proc/loadavg)

median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
col() { for round in $(seq 1 "$ROUNDS"); do awk -v f="$2" '{ print $f }' "$WORK/$1-$round.row"; done | median; }
worst() { for round in $(seq 1 "$ROUNDS"); do awk -v f="$2" '{ print $f }' "$WORK/$1-$round.row"; done | sort -g | tail -1; }
echo
echo "| server | poller | load | req/s | p50 ms | p99 ms | p99.9 ms | longest ms (worst round) | failed |"
echo "|---|---|---|---:|---:|---:|---:|---:|---:|"
for server in $CASES; do
  case "$server" in worker*) label="Worker gateway (100 B)" ;; health) label="Worker health" ;; *) label="bare Helidon /ping" ;; esac
  case "$server" in *-p1) poller="platform threads" ;; *) poller="default" ;; esac
  for load in full 70; do
    [ "$load" = full ] && what="64 connections, closed loop" || what="70% of that rate"
    printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$label" "$poller" "$what" "$(col "$server-$load" 1)" \
      "$(col "$server-$load" 2)" "$(col "$server-$load" 3)" "$(col "$server-$load" 4)" "$(worst "$server-$load" 5)" \
      "$(worst "$server-$load" 6)"
  done
done
echo
echo "Medians of $ROUNDS interleaved rounds of ${DURATION} s; every server on CPU 0 with: $JVM_OPTS;"
echo "h2load -t1 -c64 and the upstream nginx on CPU 1. Load average before/after: $LOAD_BEFORE / $LOAD_AFTER on $(nproc) CPUs."
