#!/usr/bin/env bash
# `compare` against a broadcast of `all` over the same pods.
#   bench/broadcast/compare.sh            (from the repository root; compiles the core, installs nothing)
# JVM 1 runs PEER_COUNT (15) real diagnostics pods (BroadcastPeers.java, no extra parked threads, so that `all` is as
# cheap as it gets: the harder case for `compare`); JVM 2 runs the aggregator pod, which with itself makes 16 pods,
# and the client (BroadcastBench.java compare): ROUNDS rounds of ITERATIONS calls of `all`, then as many of `compare`,
# each round's medians and the median over the rounds. Binds HOST (default 127.0.31.1). Needs a JDK >= 21.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../bench-env.sh"
BENCH="$ROOT/bench/broadcast"
OUT=$(mktemp -d)
trap 'kill "${PEERS:-}" 2>/dev/null || true; rm -rf "$OUT"' EXIT

./mvnw -B -q -o -pl core compile >/dev/null
./mvnw -B -q -o -pl core dependency:build-classpath -Dmdep.outputFile="$OUT/cp.txt" >/dev/null
CP="$ROOT/core/target/classes:$(cat "$OUT/cp.txt")"
"$JAVA_HOME/bin/javac" -d "$OUT/classes" -cp "$CP" "$BENCH"/*.java
CP="$OUT/classes:$CP"
HOST=${HOST:-127.0.31.1}
PORT=${PORT:-18400}
PEER_COUNT=${PEER_COUNT:-15}
ITERATIONS=${ITERATIONS:-10}
ROUNDS=${ROUNDS:-5}

"$JAVA" -Xmx512m -Dbench.host="$HOST" -Djava.util.logging.config.file=/dev/null -cp "$CP" BroadcastPeers "$PORT" "$PEER_COUNT" 0 \
  >"$OUT/peers.log" 2>&1 &
PEERS=$!
for _ in $(seq 1 900); do
  grep -q READY "$OUT/peers.log" 2>/dev/null && break
  kill -0 "$PEERS" 2>/dev/null || { cat "$OUT/peers.log"; exit 1; }
  sleep 0.1
done
grep READY "$OUT/peers.log"
echo "load before: $(uptime)"
PEERS_PID=$PEERS "$JAVA" -Xmx256m -Dbench.host="$HOST" -Dbench.rounds="$ROUNDS" -Djava.util.logging.config.file=/dev/null \
  -cp "$CP" BroadcastBench compare "$PORT" "$PEER_COUNT" "$ITERATIONS"
echo "load after: $(uptime)"
