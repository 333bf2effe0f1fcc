#!/usr/bin/env bash
# Single-pod diagnostics latency at rest, `all` with 500 live threads, and a heap dump of a pod
# with a 1 GiB heap about half full (time and RSS growth of the pod while it streams the dump).
#   bench/diagnostics/run.sh            (from the repository root; builds the core first)
#   SCENARIOS="rest threads heap" NAMES="jvm threads health env threaddump all" pick a part
# The pod is the core's diagnostics on a minimal module (DiagnosticsPod.java), one JVM per scenario; the client is a
# separate JVM (DiagnosticsLoad.java). Needs a JDK >= 21 (JAVA_HOME or scripts/jdk.sh).
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../bench-env.sh"
BENCH="$ROOT/bench/diagnostics"
OUT=$(mktemp -d)
trap 'kill "${POD:-}" 2>/dev/null || true; rm -rf "$OUT"' EXIT

# no install (~/.m2 is shared): the core's jar from target/ and its dependencies' class path
./mvnw -B -q -o -pl core package -DskipTests dependency:build-classpath -Dmdep.outputFile="$OUT/cp.txt" >/dev/null
# A private copy of the core: other builds in this tree must not swap classes under a running pod.
cp "$ROOT"/core/target/pylon-core-*-SNAPSHOT.jar "$OUT/core.jar"
CP="$OUT/core.jar:$(cat "$OUT/cp.txt")"
PORT=${PORT:-18391}

start_pod() { # heap options, threads, retained MiB
  local opts=$1 threads=$2 heap=$3
  # shellcheck disable=SC2086
  "$JAVA" $opts -Dpylon.data.dir="$OUT/data" -cp "$CP" "$BENCH/DiagnosticsPod.java" "$PORT" "$threads" "$heap" \
    >"$OUT/pod.log" 2>&1 &
  POD=$!
  for _ in $(seq 1 600); do
    grep -q READY "$OUT/pod.log" 2>/dev/null && return 0
    sleep 0.1
  done
  cat "$OUT/pod.log"; exit 1
}
stop_pod() { kill "$POD"; wait "$POD" 2>/dev/null || true; POD=; }
load() { "$JAVA" -cp "$BENCH" "$BENCH/DiagnosticsLoad.java" "$@"; }

SCENARIOS=${SCENARIOS:-rest threads heap}
want() { case " $SCENARIOS " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }

if want rest; then
echo "== at rest (default heap, no extra threads), ?internal=true, sequential"
start_pod "-Xmx256m" 0 0
for name in ${NAMES:-jvm threads health env threaddump all}; do
  load latency "$PORT" "$name" 300 2000
done
stop_pod
fi

if want threads; then
echo "== all and threaddump with 500 extra live threads"
start_pod "-Xmx256m" 500 0
load latency "$PORT" threads 100 500
load latency "$PORT" threaddump 20 200
load latency "$PORT" all 20 200
stop_pod
fi

if want heap; then
echo "== heap dump, -Xmx1g with ~512 MiB live"
start_pod "-Xms1g -Xmx1g" 0 512
PID=$(sed -n 's/^READY \([0-9]*\).*/\1/p' "$OUT/pod.log")
load heapdump "$PORT" "$PID" ""
load heapdump "$PORT" "$PID" "?compress=gzip"
stop_pod
fi
