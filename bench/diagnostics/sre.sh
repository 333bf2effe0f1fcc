#!/usr/bin/env bash
# Hotthreads with 500 parked platform threads (5 samples 200 ms apart) and histogram on a 1 GiB
# heap holding 500,000 retained objects (about 600 MB live), each measured ROUNDS times against one pod process.
#   bench/diagnostics/sre.sh [rounds]        (from the repository root)
# BENCH_ADDR: the loopback address the pod binds (default 127.0.0.1). Prints per round the wall time of the request
# (curl), the pod's own figures from the answer (spanMillis, maxSampleMillis: wall time of the longest reading;
# tookMillis), the pod process's CPU during the hotthreads call (/proc, 10 ms ticks) divided by its 6 readings (this
# includes the HTTP handling and JSON), then the medians; then the CPU of one reading over CALLS (40) calls.
# The JFR cost on the Worker's proxied requests/s is measured with bench/worker/run.sh (see BENCHMARKS.md).
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/core-pod.sh"
ROUNDS=${1:-7}
PORT=${PORT:-18392}
OUT=$(mktemp -d)
trap 'kill "${POD:-}" 2>/dev/null || true; rm -rf "$OUT"' EXIT

CP=$(core_classpath "$OUT")
AUTH="Authorization: 0123456789abcdef01234567"

"$JAVA" -Xms1g -Xmx1g -XX:+UseSerialGC -Dpylon.data.dir="$OUT/data" -cp "$CP" bench/diagnostics/SrePod.java \
  "$ADDR" "$PORT" 500 500000 1024 > "$OUT/pod.log" 2>&1 &
POD=$!
for _ in $(seq 1 900); do grep -q READY "$OUT/pod.log" 2>/dev/null && break; sleep 0.1; done
grep READY "$OUT/pod.log" || { cat "$OUT/pod.log"; exit 1; }
URL="http://$ADDR:$PORT/platform/diagnostics"
field() { grep -o "\"$1\":[0-9.]*" | head -1 | cut -d: -f2; }
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
cpu_ms() { awk '{print ($14 + $15) * 10}' "/proc/$POD/stat"; } # utime + stime, at 100 ticks a second
echo "| round | hotthreads wall ms | span ms | max sample ms | pod CPU ms / reading | threads | histogram live=false wall ms | took ms | histogram live=true wall ms | took ms |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for r in $(seq 1 "$ROUNDS"); do
  c0=$(cpu_ms)
  ht_wall=$(curl -s -o "$OUT/ht.json" -w '%{time_total}' -H "$AUTH" "$URL/hotthreads?internal=true&interval=200ms&samples=5&top=10")
  c1=$(cpu_ms)
  hg_wall=$(curl -s -o "$OUT/hg.json" -w '%{time_total}' -H "$AUTH" "$URL/histogram?internal=true&top=50&live=false")
  hl_wall=$(curl -s -o "$OUT/hl.json" -w '%{time_total}' -H "$AUTH" "$URL/histogram?internal=true&top=50&live=true")
  ht_ms=$(awk "BEGIN {printf \"%.0f\", $ht_wall * 1000}")
  hg_ms=$(awk "BEGIN {printf \"%.0f\", $hg_wall * 1000}")
  hl_ms=$(awk "BEGIN {printf \"%.0f\", $hl_wall * 1000}")
  span=$(field spanMillis < "$OUT/ht.json")
  sample=$(field maxSampleMillis < "$OUT/ht.json")
  threads=$(field threadCount < "$OUT/ht.json")
  per_reading=$(awk "BEGIN {printf \"%.1f\", ($c1 - $c0) / 6}") # 6 readings: the first and 5 samples
  took=$(field tookMillis < "$OUT/hg.json")
  took_live=$(field tookMillis < "$OUT/hl.json")
  echo "| $r | $ht_ms | $span | $sample | $per_reading | $threads | $hg_ms | $took | $hl_ms | $took_live |"
  echo "$ht_ms $sample $hg_ms $hl_ms $per_reading" >> "$OUT/rounds.txt"
done
# The CPU of one reading, measured over many calls to beat the 10 ms tick: CALLS calls of 6 readings 10 ms apart
# (the heavy-call limit lets them run one at a time), the pod's CPU over all of them minus what it uses idle over the
# same wall time, divided by the readings.
CALLS=${CALLS:-40}
w0=$(date +%s%N); c0=$(cpu_ms)
for _ in $(seq 1 "$CALLS"); do
  curl -s -o /dev/null -H "$AUTH" "$URL/hotthreads?internal=true&interval=10ms&samples=5&top=10"
done
c1=$(cpu_ms); w1=$(date +%s%N)
sleep "$(awk "BEGIN {print ($w1 - $w0) / 1e9}")"
c2=$(cpu_ms)
echo
echo "hotthreads CPU per reading over $CALLS calls: $(awk "BEGIN {printf \"%.2f\", ($c1 - $c0 - ($c2 - $c1)) / ($CALLS * 6)}") ms" \
  "(pod CPU $((c1 - c0)) ms for $((CALLS * 6)) readings in $(( (w1 - w0) / 1000000 )) ms, $((c2 - c1)) ms idle over as long)"
echo
echo "medians: hotthreads wall $(cut -d' ' -f1 "$OUT/rounds.txt" | median) ms, max sample $(cut -d' ' -f2 "$OUT/rounds.txt" | median) ms," \
  "pod CPU per reading $(cut -d' ' -f5 "$OUT/rounds.txt" | median) ms;" \
  "histogram live=false $(cut -d' ' -f3 "$OUT/rounds.txt" | median) ms, live=true $(cut -d' ' -f4 "$OUT/rounds.txt" | median) ms"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
