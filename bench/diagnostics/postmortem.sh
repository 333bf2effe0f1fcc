#!/usr/bin/env bash
# The black box's capture of a pod with 500 parked platform threads (plus the pod's own): the time
# to build, compress and write one capture, and its size on disk, ROUNDS times against one pod process; then the time
# the SIGTERM capture adds before the graceful stop.
#   bench/diagnostics/postmortem.sh [rounds]        (from the repository root)
# Each round deadlocks two new threads (a new deadlock, so a new capture: the pod allows one per trigger a second)
# and reads the pod's log line "Postmortem capture <id> written (<bytes> bytes in <ms> ms)"; the capture's own
# tookMillis (sections only, before gzip) comes from its file. BENCH_ADDR: the loopback address the pod binds.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/core-pod.sh"
ROUNDS=${1:-11}
PORT=${PORT:-18393}
OUT=$(mktemp -d)
trap 'exec 3>&- 2>/dev/null || true; kill "${POD:-}" 2>/dev/null || true; rm -rf "$OUT"' EXIT

CP=$(core_classpath "$OUT")

mkfifo "$OUT/in"
"$JAVA" -Xms256m -Xmx256m -XX:+UseSerialGC -cp "$CP" bench/diagnostics/PostmortemPod.java \
  "$ADDR" "$PORT" 500 "$OUT/data" < "$OUT/in" > "$OUT/pod.log" 2>&1 &
POD=$!
exec 3> "$OUT/in"
for _ in $(seq 1 900); do grep -q READY "$OUT/pod.log" 2>/dev/null && break; sleep 0.1; done
grep READY "$OUT/pod.log" || { cat "$OUT/pod.log"; exit 1; }
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
written() { grep -c 'Postmortem capture .* written' "$OUT/pod.log" || true; }

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "| round | threads | write ms (build + gzip + fsync + rename) | sections ms (tookMillis) | of which thread dump ms | histogram ms | size KiB (gzip) | JSON KiB |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|"
for r in $(seq 1 "$ROUNDS"); do
  before=$(written)
  echo deadlock >&3
  for _ in $(seq 1 300); do [ "$(written)" -gt "$before" ] && break; sleep 0.05; done
  line=$(grep 'Postmortem capture .* written' "$OUT/pod.log" | tail -1)
  id=$(sed -E 's/.*Postmortem capture ([^ ]+) written.*/\1/' <<< "$line")
  ms=$(sed -E 's/.* bytes in ([0-9]+) ms.*/\1/' <<< "$line")
  bytes=$(sed -E 's/.*written \(([0-9]+) bytes.*/\1/' <<< "$line")
  json=$(gzip -dc "$OUT/data/postmortem/$id.json.gz" | wc -c)
  took=$(gzip -dc "$OUT/data/postmortem/$id.json.gz" | grep -o '"tookMillis":[0-9]*' | tail -1 | cut -d: -f2)
  dump_ms=$(gzip -dc "$OUT/data/postmortem/$id.json.gz" | grep -o '"sectionMillis":{[^}]*}' | grep -o '"threadDump":[0-9]*' | cut -d: -f2)
  histo_ms=$(gzip -dc "$OUT/data/postmortem/$id.json.gz" | grep -o '"sectionMillis":{[^}]*}' | grep -o '"histogram":[0-9]*' | cut -d: -f2)
  threads=$(gzip -dc "$OUT/data/postmortem/$id.json.gz" | grep -o '"threadCount":[0-9]*' | head -1 | cut -d: -f2)
  echo "| $r | $threads | $ms | $took | $dump_ms | $histo_ms | $(awk "BEGIN {printf \"%.1f\", $bytes / 1024}") | $(awk "BEGIN {printf \"%.0f\", $json / 1024}") |"
  echo "$ms $took $bytes $json" >> "$OUT/rounds.txt"
  sleep 1.1 # the pod writes one capture per trigger a second
done
echo
echo "median write ms: $(cut -d' ' -f1 "$OUT/rounds.txt" | median), sections ms: $(cut -d' ' -f2 "$OUT/rounds.txt" | median)," \
  "size KiB: $(cut -d' ' -f3 "$OUT/rounds.txt" | median | awk '{printf "%.1f", $1 / 1024}')," \
  "JSON KiB: $(cut -d' ' -f4 "$OUT/rounds.txt" | median | awk '{printf "%.0f", $1 / 1024}')"

t0=$(date +%s%N)
kill -TERM "$POD"
wait "$POD" || true
t1=$(date +%s%N)
# the capture runs beside the graceful stop, whose end resets logging: its file, not a log line, says it was written
file=$(ls "$OUT/data/postmortem/" | grep -- '-sigterm-' || true)
if [ -n "$file" ]; then
  took=$(gzip -dc "$OUT/data/postmortem/$file" | grep -o '"tookMillis":[0-9]*' | tail -1 | cut -d: -f2)
  echo "SIGTERM: capture $file written (sections ${took} ms, beside the graceful stop); SIGTERM to exit $(( (t1 - t0) / 1000000 )) ms"
else
  echo "SIGTERM: no capture written; SIGTERM to exit $(( (t1 - t0) / 1000000 )) ms"
fi
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
