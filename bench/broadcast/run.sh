#!/usr/bin/env bash
# Broadcast diagnostics benchmark.
#   bench/broadcast/run.sh            (from the repository root; builds the core first)
#   HOST=127.0.33.1 MODES="heap" PORT=18400 pick the address and the part; CORE=<a core jar> runs that build instead
# JVM 1 runs 64 real diagnostics pods on 127.0.0.1 (BroadcastPeers.java); JVM 2 runs the aggregator pods and the
# client (BroadcastBench.java), both with BenchModule.java: `jvm` latency of a single-pod call, of broadcasts over
# 1/4/16/64 pods and of a sequential loop over the same pods, the effect of one hung pod; then JVM 3, with a 48 MiB
# heap, aggregates a thread dump broadcast over 65 pods answering about 1 MB each and reports its heap growth.
# Needs a JDK >= 21 (JAVA_HOME or scripts/jdk.sh).
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../bench-env.sh"
BENCH="$ROOT/bench/broadcast"
OUT=$(mktemp -d)
trap 'kill "${PEERS:-}" 2>/dev/null || true; rm -rf "$OUT"' EXIT

# no install (~/.m2 is shared): core/target/classes and its dependencies' class path
./mvnw -B -q -o -pl core compile dependency:build-classpath -Dmdep.outputFile="$OUT/cp.txt" >/dev/null
CP="${CORE:-$ROOT/core/target/classes}:$(cat "$OUT/cp.txt")"
"$JAVA_HOME/bin/javac" -d "$OUT/classes" -cp "$CP" "$BENCH"/*.java
CP="$OUT/classes:$CP"
HOST=${HOST:-127.0.0.1}   # the loopback address of every pod (not 127.0.0.1-7 while `./pylon up` runs)
MODES=${MODES:-latency heap}
PORT=${PORT:-18400}
PEER_COUNT=${PEER_COUNT:-64}
PARKED=${PARKED:-560}   # parked threads in the peers' JVM: each peer's thread dump is then about 1 MiB
ITERATIONS=${ITERATIONS:-200}

"$JAVA" -Xmx1g -Dbench.host="$HOST" -Djava.util.logging.config.file=/dev/null -cp "$CP" BroadcastPeers "$PORT" "$PEER_COUNT" "$PARKED" \
  >"$OUT/peers.log" 2>&1 &
PEERS=$!
for _ in $(seq 1 900); do
  grep -q READY "$OUT/peers.log" 2>/dev/null && break
  kill -0 "$PEERS" 2>/dev/null || { cat "$OUT/peers.log"; exit 1; }
  sleep 0.1
done
grep READY "$OUT/peers.log"
SIZE=$(curl -s -H "Authorization: 0123456789abcdef01234567" "http://$HOST:$PORT/platform/diagnostics/threaddump?internal=true" | wc -c)
echo "one peer's threaddump answer: $SIZE bytes"

if [[ " $MODES " == *" latency "* ]]; then
  echo "== latency (aggregator JVM -Xmx256m)"
  PEERS_PID=$PEERS "$JAVA" -Xmx256m -Dbench.host="$HOST" -Djava.util.logging.config.file=/dev/null -cp "$CP" BroadcastBench latency "$PORT" "$PEER_COUNT" "$ITERATIONS"
fi
if [[ " $MODES " == *" heap "* ]]; then
  echo "== heap (aggregator JVM -Xmx48m, serial GC)"
  "$JAVA" -Xmx48m -XX:+UseSerialGC -Dbench.host="$HOST" -Djava.util.logging.config.file=/dev/null -cp "$CP" BroadcastBench heap "$PORT" "$PEER_COUNT"
fi
