#!/usr/bin/env bash
# The broadcast's own cost, against peers that cost almost nothing.
#   bench/broadcast/canned.sh            (from the repository root; builds the core first; needs nginx, wrk, curl)
#   ROUNDS=5 DURATION=5 PEERS="16 64" ADDR=127.0.33 PORT=18530 POD_OPTS="..." pick the run
#   CORES="before=/path/to/old/pylon-core.jar"  adds aggregators running other builds of the core (one JVM each,
#   measured in the same interleaved rounds, against the same nginx); this tree's core is "this".
# One JVM (CannedAggregator.java, the options of `./pylon run` by default) runs one real pod per peer count on
# $ADDR.1, each discovering itself plus that many peers at $ADDR.10.. ; one nginx (one worker process) answers every
# peer's `jvm?internal=true` with the aggregator's own answer, captured first (so a peer costs nginx's few
# microseconds, as in a cluster where each pod has its own CPU). wrk -t1 -c1 then measures, in interleaved rounds,
# the pod's own `internal=true` answer and each broadcast; it prints per round and the medians of the rounds:
# p50/p99 latency, the ratio of each broadcast's p50 to the same round's internal=true p50, and the aggregator JVM's
# CPU per request (from /proc). PROFILE=<dir> runs the aggregator under async-profiler (tools.profiler:async-profiler
# from Maven Central, copied to the dir) and writes its CPU profile of the whole run, in collapsed stacks, to
# <dir>/aggregator-<build>.collapsed when the aggregator exits (profile one scenario at a time: PEERS=64).
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../bench-env.sh"
for tool in nginx wrk curl; do
  command -v "$tool" >/dev/null || { echo "$tool is needed (apt-get install -y $tool)" >&2; exit 1; }
done
BENCH="$ROOT/bench/broadcast"
OUT=$(mktemp -d)
AGGS=()
cleanup() {
  if [ -f "$OUT/nginx.pid" ]; then kill "$(cat "$OUT/nginx.pid")" 2>/dev/null || true; fi
  for pid in "${AGGS[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
  rm -rf "$OUT"
}
trap cleanup EXIT

ADDR=${ADDR:-127.0.33}
PORT=${PORT:-18530}
PEER_PORT=${PEER_PORT:-18531}
PEERS=${PEERS:-16 64}
ROUNDS=${ROUNDS:-5}
DURATION=${DURATION:-5}
POD_OPTS=${POD_OPTS:--XX:+UseSerialGC -Xms16m -Xss512k -XX:MinHeapFreeRatio=10 -XX:MaxHeapFreeRatio=20}
AUTH=0123456789abcdef01234567

./mvnw -B -q -o -pl core package -DskipTests >/dev/null || ./mvnw -B -q -pl core package -DskipTests >/dev/null
./mvnw -B -q -o -pl core dependency:build-classpath -Dmdep.outputFile="$OUT/cp.txt" >/dev/null
[ -s "$OUT/cp.txt" ] || { echo "the core's class path could not be built" >&2; exit 1; }
# A private copy of the core: other builds in this tree must not swap classes under a running pod.
cp "$ROOT"/core/target/pylon-core-*-SNAPSHOT.jar "$OUT/core-this.jar"
DEPS=$(cat "$OUT/cp.txt")
"$JAVA_HOME/bin/javac" -d "$OUT/classes" -cp "$OUT/core-this.jar:$DEPS" "$BENCH/CannedAggregator.java" "$BENCH/BenchModule.java"
BUILDS=(this)
for entry in ${CORES:-}; do
  name=${entry%%=*}
  cp "${entry#*=}" "$OUT/core-$name.jar" || { echo "no core jar for $name: ${entry#*=}" >&2; exit 1; }
  BUILDS+=("$name")
done

if [ -n "${PROFILE:-}" ]; then
  mkdir -p "$PROFILE"
  if [ ! -f "$PROFILE/libasyncProfiler.so" ]; then
    ./mvnw -B -q dependency:copy -Dartifact=tools.profiler:async-profiler:4.2:jar:linux-x64 -DoutputDirectory="$OUT/ap" >/dev/null
    (cd "$OUT/ap" && "$JAVA_HOME/bin/jar" xf async-profiler-4.2-linux-x64.jar linux-x64/libasyncProfiler.so)
    cp "$OUT/ap/linux-x64/libasyncProfiler.so" "$PROFILE/"
  fi
fi

# one aggregator JVM per build of the core, on ports PORT + 10 * index + (0, 1...) for the peer counts
declare -A AGG_PID
b=0
for build in "${BUILDS[@]}"; do
  AGENT=()
  if [ -n "${PROFILE:-}" ]; then
    AGENT=("-agentpath:$PROFILE/libasyncProfiler.so=start,event=${PROFILE_EVENT:-cpu},interval=${PROFILE_INTERVAL:-200us},file=$PROFILE/aggregator-$build.collapsed,collapsed")
  fi
  # shellcheck disable=SC2086
  "$JAVA" $POD_OPTS "${AGENT[@]}" -Djava.util.logging.config.file=/dev/null \
    -cp "$OUT/classes:$OUT/core-$build.jar:$DEPS" CannedAggregator \
    "$ADDR.1" $((PORT + 10 * b)) "$ADDR" "$PEER_PORT" $PEERS >"$OUT/agg-$build.log" 2>&1 &
  AGG_PID[$build]=$!
  AGGS+=($!)
  b=$((b + 1))
done
for build in "${BUILDS[@]}"; do
  for _ in $(seq 1 600); do
    grep -q READY "$OUT/agg-$build.log" 2>/dev/null && break
    kill -0 "${AGG_PID[$build]}" 2>/dev/null || { cat "$OUT/agg-$build.log"; exit 1; }
    sleep 0.1
  done
  grep -q READY "$OUT/agg-$build.log" || { cat "$OUT/agg-$build.log"; exit 1; }
done

# the canned body: what the aggregator answers for itself
mkdir -p "$OUT/www/platform/diagnostics"
curl -sf -H "Authorization: $AUTH" "http://$ADDR.1:$PORT/platform/diagnostics/jvm?internal=true" \
  >"$OUT/www/platform/diagnostics/jvm"
chmod 755 "$OUT" && chmod -R a+rX "$OUT/www"   # nginx's worker runs as nobody when started by root
MAX=0
for n in $PEERS; do [ "$n" -gt "$MAX" ] && MAX=$n; done
{
  echo "worker_processes 1; daemon off; pid $OUT/nginx.pid; error_log $OUT/nginx.err;"
  echo "events { worker_connections 1024; }"
  echo "http { access_log off; keepalive_requests 1000000; keepalive_timeout 300s;"
  echo "  client_body_temp_path $OUT/t1; proxy_temp_path $OUT/t2; fastcgi_temp_path $OUT/t3; uwsgi_temp_path $OUT/t4; scgi_temp_path $OUT/t5;"
  echo "  server {"
  for i in $(seq 0 $((MAX - 1))); do echo "    listen $ADDR.$((10 + i)):$PEER_PORT;"; done
  echo "    root $OUT/www; default_type application/json;"
  echo "  }"
  echo "}"
} >"$OUT/nginx.conf"
nginx -c "$OUT/nginx.conf" -p "$OUT" 2>>"$OUT/nginx.err" &
for _ in $(seq 1 50); do [ -f "$OUT/nginx.pid" ] && break; sleep 0.1; done
[ -f "$OUT/nginx.pid" ] || { cat "$OUT/nginx.err"; exit 1; }
curl -sf "http://$ADDR.10:$PEER_PORT/platform/diagnostics/jvm?internal=true" >/dev/null \
  || { echo "nginx does not answer" >&2; cat "$OUT/nginx.err"; exit 1; }

echo "aggregators ${BUILDS[*]}, options: $POD_OPTS; canned body $(wc -c <"$OUT/www/platform/diagnostics/jvm") bytes;" \
  "uptime: $(uptime)"

cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
to_ms() { # wrk latency (12.34us, 1.20ms, 1.01s) in ms
  awk -v v="$1" 'BEGIN { n = v + 0; if (v ~ /us$/) n /= 1000; else if (v ~ /ms$/) n += 0; else if (v ~ /s$/) n *= 1000; printf "%.3f", n }'
}
# one scenario: name url pid -> "p50 p99 requests cpu_ms_per_request"
run_wrk() {
  local name=$1 url=$2 pid=$3 t0 t1 out
  t0=$(cpu_ticks "$pid")
  out=$(wrk -t1 -c1 -d"${DURATION}s" --latency -H "Authorization: $AUTH" "$url")
  t1=$(cpu_ticks "$pid")
  if echo "$out" | grep -q "Non-2xx"; then echo "$name: non-2xx answers" >&2; echo "$out" >&2; exit 1; fi
  local p50 p99 req
  p50=$(to_ms "$(echo "$out" | awk '$1 == "50%" {print $2}')")
  p99=$(to_ms "$(echo "$out" | awk '$1 == "99%" {print $2}')")
  req=$(echo "$out" | awk '/requests in/ {print $1}')
  echo "$p50 $p99 $req $(awk -v t=$((t1 - t0)) -v r="$req" 'BEGIN { printf "%.3f", t * 10 / r }')"
}

SCENARIOS=(self)
for n in $PEERS; do SCENARIOS+=("$n"); done
url_of() { # build index, scenario
  local base=$((PORT + 10 * $1)) i=0
  if [ "$2" = self ]; then echo "http://$ADDR.1:$base/platform/diagnostics/jvm?internal=true"; return; fi
  for n in $PEERS; do
    [ "$n" = "$2" ] && { echo "http://$ADDR.1:$((base + i))/platform/diagnostics/jvm"; return; }
    i=$((i + 1))
  done
}
b=0
for build in "${BUILDS[@]}"; do
  for s in "${SCENARIOS[@]}"; do
    body=$(curl -sf -H "Authorization: $AUTH" "$(url_of $b "$s")")
    if [ "$s" != self ]; then
      echo "$body" | grep -q "\"succeeded\":$((s + 1))," \
        || { echo "$build, broadcast over $s peers: not every pod answered: ${body: -300}" >&2; exit 1; }
    fi
    echo "$build $s: $(echo -n "$body" | wc -c) bytes"
  done
  b=$((b + 1))
done

echo "== warm-up (${DURATION}s each, not counted)"
b=0
for build in "${BUILDS[@]}"; do
  for s in "${SCENARIOS[@]}"; do run_wrk "$s" "$(url_of $b "$s")" "${AGG_PID[$build]}" >/dev/null; done
  b=$((b + 1))
done

echo "== $ROUNDS interleaved rounds, wrk -t1 -c1 -d${DURATION}s each (latency in ms; cpu = aggregator JVM's CPU ms per request)"
: >"$OUT/results"
for r in $(seq 1 "$ROUNDS"); do
  b=0
  for build in "${BUILDS[@]}"; do
    line="round $r $build:"
    for s in "${SCENARIOS[@]}"; do
      read -r p50 p99 req cpu < <(run_wrk "$s" "$(url_of $b "$s")" "${AGG_PID[$build]}")
      echo "$r $build $s $p50 $p99 $req $cpu" >>"$OUT/results"
      line="$line  $s p50 $p50 p99 $p99 cpu $cpu"
    done
    echo "$line"
    b=$((b + 1))
  done
done
echo "== medians of the $ROUNDS rounds (ratio: the broadcast's p50 over the same round's internal=true p50 of the same build)"
awk '
  { key = $2 " " $3; p50[key, $1] = $4; p99[key, $1] = $5; cpu[key, $1] = $7; keys[key] = $2; rounds[$1] = 1 }
  function median(arr, n,   i, j, t) {
    for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (arr[j] < arr[i]) { t = arr[i]; arr[i] = arr[j]; arr[j] = t }
    return n % 2 ? arr[(n + 1) / 2] : (arr[n / 2] + arr[n / 2 + 1]) / 2
  }
  END {
    n = 0; for (r in rounds) n++
    for (k in keys) {
      for (r = 1; r <= n; r++) { a[r] = p50[k, r]; b[r] = p99[k, r]; c[r] = cpu[k, r]; d[r] = p50[k, r] / p50[keys[k] " self", r] }
      printf "%-16s p50 %7.3f ms  p99 %7.3f ms  cpu %6.3f ms/request  ratio to internal=true p50 %6.2fx\n", k, median(a, n), median(b, n), median(c, n), median(d, n)
    }
  }' "$OUT/results" | sort
echo "uptime at the end: $(uptime)"
