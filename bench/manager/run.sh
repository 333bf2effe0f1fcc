#!/usr/bin/env bash
# Management API benchmark: token endpoint latency (dominated by Argon2id, OWASP parameters m=19 MiB, t=2, p=1) and
# requests/s of a Bearer-authenticated read against the same read without authentication (wrk).
#   bench/manager/run.sh            (from the repository root; builds the manager module first; needs wrk)
# The Manager runs in its own JVM (ManagerBenchPod.java) with benchmark-only routes added through the
# ManagerExtension SPI (BenchRoutes.java): /bench/open/... and /bench/bearer/... run the same environment read.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../bench-env.sh"
BENCH="$ROOT/bench/manager"
OUT=$(mktemp -d)
trap 'kill "${POD:-}" 2>/dev/null || true; rm -rf "$OUT"' EXIT
PORT=${PORT:-18380}
DURATION=${DURATION:-10s}
CONNECTIONS=${CONNECTIONS:-32}
REQUESTS=${REQUESTS:-40}
ROUNDS=${ROUNDS:-3}
command -v wrk >/dev/null || { echo "wrk is needed: apt-get install -y wrk"; exit 1; }

# no install (~/.m2 is shared): with -am the class path names the core of this tree (its jar in core/target), and the
# Manager's class path is the last one written, the Manager coming last in the reactor
./mvnw -B -q -o -pl manager -am package -DskipTests dependency:build-classpath -Dmdep.outputFile="$OUT/cp.txt" >/dev/null
CP="$ROOT/manager/target/classes:$(cat "$OUT/cp.txt")"
mkdir -p "$OUT/ext/META-INF/services"
"$JAVA_HOME/bin/javac" -d "$OUT/ext" -cp "$CP" "$BENCH/BenchRoutes.java"
echo BenchRoutes > "$OUT/ext/META-INF/services/io.pylon.manager.ManagerExtension"
PASSWORD="bench-$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')"

start_pod() { # extra environment for the pod
  rm -rf "$OUT/data"
  env PYLON_MANAGER_ADMIN_PASSWORD="$PASSWORD" "$@" "$JAVA" -Xmx256m -cp "$CP:$OUT/ext" "$BENCH/ManagerBenchPod.java" \
    "$PORT" "$OUT/data" >"$OUT/pod.log" 2>&1 &
  POD=$!
  for _ in $(seq 1 600); do
    grep -q READY "$OUT/pod.log" 2>/dev/null && return 0
    sleep 0.1
  done
  cat "$OUT/pod.log"; exit 1
}
stop_pod() { kill "$POD"; wait "$POD" 2>/dev/null || true; POD=; }
token() {
  curl -s -d grant_type=client_credentials -d client_id=admin -d client_secret="$PASSWORD" \
    "http://127.0.0.1:$PORT/apiops/auth/token" | sed 's/.*"access_token":"\([^"]*\)".*/\1/'
}
rate() { # label, url, extra wrk args...
  local label=$1 url=$2; shift 2
  wrk -t2 -c"$CONNECTIONS" -d"$DURATION" "$@" "$url" | awk -v l="$label" '/Requests\/sec/ {printf "%-46s %s req/s\n", l, $2} /Non-2xx/ {print "  NON-2XX: " $0}'
}

echo "== token endpoint latency (sequential, $REQUESTS requests each)"
start_pod
"$JAVA" -cp "$CP" "$BENCH/TokenLatency.java" "$PORT" "$PASSWORD" "$REQUESTS" 19456 2 1

BASE="http://127.0.0.1:$PORT"
compare() { # alternating rounds of the open and the Bearer-checked read, after a warm-up of both
  local T
  T=$(token)
  rate "warm-up" "$BASE/bench/open/environments/local" >/dev/null
  rate "warm-up" "$BASE/bench/bearer/environments/local" -H "Authorization: Bearer $T" >/dev/null
  for round in $(seq 1 "$ROUNDS"); do
    rate "round $round open   /bench/open/environments/local" "$BASE/bench/open/environments/local"
    rate "round $round bearer /bench/bearer/environments/local" "$BASE/bench/bearer/environments/local" -H "Authorization: Bearer $T"
    rate "round $round bearer /apiops/environments/local" "$BASE/apiops/environments/local" -H "Authorization: Bearer $T"
  done
}

echo "== CPU time of one Bearer check, in process"
"$JAVA" -cp "$CP" "$BENCH/BearerCheckCost.java" 2>&1 | grep -v -e SLF4J -e '^INFO' -e '^[A-Z][a-z][a-z] [0-9]'

echo "== requests/s, wrk -t2 -c$CONNECTIONS -d$DURATION, token check cache on (default 2s)"
compare
stop_pod

echo "== the same without the token check cache (every request reads token and account from H2)"
start_pod PYLON_MANAGER_TOKEN_CHECK_CACHE=0ms
compare
stop_pod
