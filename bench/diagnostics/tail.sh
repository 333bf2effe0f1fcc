#!/usr/bin/env bash
# The tail of `jvm?internal=true` under 64 connections (wrk -t2 -c64), with the pod's GC log.
#   bench/diagnostics/tail.sh            (from the repository root; builds the core first; needs wrk, curl)
#   ROUNDS=3 DURATION=10 ADDR=127.0.33 PORT=18540 CONFIGS="name=opts|name=opts" NAME=jvm pick the run
#   POD_TASKSET=0 WRK_TASKSET=1: pin the pods and wrk to those CPUs (taskset), the load generator apart from the pod
# Each configuration is a pod (DiagnosticsPod.java, its own JVM, `-Xlog:gc,safepoint` to a file) started once; the
# rounds are interleaved across the configurations (one wrk run each per round). Per run: requests/s, p50/p99/max
# latency, and from the pod's logs during that run the collections (young, full), their longest pause and the
# longest safepoint. The default configuration: the serial collector with a small,
# quickly shrinking heap (name pylon-run); pass others in CONFIGS to compare.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../bench-env.sh"
for tool in wrk curl; do
  command -v "$tool" >/dev/null || { echo "$tool is needed (apt-get install -y $tool)" >&2; exit 1; }
done
BENCH="$ROOT/bench/diagnostics"
OUT=$(mktemp -d)
PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  rm -rf "$OUT"
}
trap cleanup EXIT

ADDR=${ADDR:-127.0.33}
PORT=${PORT:-18540}
ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-10}
NAME=${NAME:-jvm}
CONFIGS=${CONFIGS:-"pylon-run=-XX:+UseSerialGC -Xms16m -Xss512k -XX:MinHeapFreeRatio=10 -XX:MaxHeapFreeRatio=20"}
AUTH=0123456789abcdef01234567

./mvnw -B -q -o -pl core package -DskipTests >/dev/null || ./mvnw -B -q -pl core package -DskipTests >/dev/null
./mvnw -B -q -o -pl core dependency:build-classpath -Dmdep.outputFile="$OUT/cp.txt" >/dev/null
[ -s "$OUT/cp.txt" ] || { echo "the core's class path could not be built" >&2; exit 1; }
cp "$ROOT"/core/target/pylon-core-*-SNAPSHOT.jar "$OUT/core.jar"
CP="$OUT/core.jar:$(cat "$OUT/cp.txt")"

IFS='|' read -r -a CONFIG_LIST <<<"$CONFIGS"
NAMES=()
i=0
for config in "${CONFIG_LIST[@]}"; do
  name=${config%%=*}; opts=${config#*=}
  NAMES+=("$name")
  port=$((PORT + i))
  # shellcheck disable=SC2086
  ${POD_TASKSET:+taskset -c $POD_TASKSET} "$JAVA" $opts -Xlog:gc,safepoint:file="$OUT/$name.gc":uptime -Dbench.bind="$ADDR.1" -Dpylon.data.dir="$OUT/data-$name" \
    -cp "$CP" "$BENCH/DiagnosticsPod.java" "$port" 0 0 >"$OUT/$name.log" 2>&1 &
  PIDS+=($!)
  i=$((i + 1))
done
i=0
for name in "${NAMES[@]}"; do
  for _ in $(seq 1 600); do grep -q READY "$OUT/$name.log" 2>/dev/null && break; sleep 0.1; done
  grep -q READY "$OUT/$name.log" || { cat "$OUT/$name.log"; exit 1; }
  curl -sf -H "Authorization: $AUTH" "http://$ADDR.1:$((PORT + i))/platform/diagnostics/$NAME?internal=true" >/dev/null
  i=$((i + 1))
done

to_ms() {
  awk -v v="$1" 'BEGIN { n = v + 0; if (v ~ /us$/) n /= 1000; else if (v ~ /ms$/) n += 0; else if (v ~ /s$/) n *= 1000; printf "%.2f", n }'
}
# the pod's log lines since a given line count: collections and pauses
gc_summary() { # file fromLine
  tail -n +"$(($2 + 1))" "$1" | awk '
    /Pause Young/ { young++; p = $NF; sub(/ms$/, "", p); if (p + 0 > maxp) maxp = p + 0 }
    /Pause Full/  { full++;  p = $NF; sub(/ms$/, "", p); if (p + 0 > maxp) maxp = p + 0 }
    /safepoint.*Total:/ { for (i = 1; i <= NF; i++) if ($i == "Total:") { t = $(i + 1) / 1e6; if (t > maxs) maxs = t } }
    END { printf "young %d full %d max pause %.2f ms max safepoint %.2f ms", young, full, maxp, maxs }'
}
run() { # name port
  local url="http://$ADDR.1:$2/platform/diagnostics/$NAME?internal=true" from out
  from=$(wc -l <"$OUT/$1.gc")
  out=$(${WRK_TASKSET:+taskset -c $WRK_TASKSET} wrk -t2 -c64 -d"${DURATION}s" --latency -H "Authorization: $AUTH" "$url")
  if echo "$out" | grep -q "Non-2xx"; then echo "$1: non-2xx answers" >&2; echo "$out" >&2; exit 1; fi
  printf "%-12s %9s req/s  p50 %6s ms  p99 %7s ms  max %7s ms  | %s\n" "$1" \
    "$(echo "$out" | awk '/Requests\/sec/ {print $2}')" \
    "$(to_ms "$(echo "$out" | awk '$1 == "50%" {print $2}')")" "$(to_ms "$(echo "$out" | awk '$1 == "99%" {print $2}')")" \
    "$(to_ms "$(echo "$out" | awk '$1 == "Latency" {print $4}')")" "$(gc_summary "$OUT/$1.gc" "$from")"
}

echo "uptime: $(uptime)"
echo "== warm-up (${DURATION}s each, not counted)"
i=0; for name in "${NAMES[@]}"; do run "$name" $((PORT + i)) >/dev/null; i=$((i + 1)); done
echo "== $ROUNDS interleaved rounds, wrk -t2 -c64 -d${DURATION}s, $NAME?internal=true"
for r in $(seq 1 "$ROUNDS"); do
  i=0
  for name in "${NAMES[@]}"; do echo "round $r $(run "$name" $((PORT + i)))"; i=$((i + 1)); done
done
echo "uptime at the end: $(uptime)"
