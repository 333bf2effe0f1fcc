#!/usr/bin/env bash
# Time and bytes allocated per Argon2id hash, password4j 1.8.4 against Pylon's own Argon2id
# (io.pylon.manager.auth.argon2), interleaved in one JVM on one thread, after a warm-up.
#   bench/auth/argon2.sh            (from the repository root; builds the manager module first)
# Environment: MEMORY (KiB, 19456), ITERATIONS (2), PARALLELISM (1), WARMUP (10), ROUNDS (25),
# JAVA_OPTS (the pods' defaults: -XX:+UseSerialGC -Xms16m -Xmx192m ...).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"
. scripts/jdk.sh
pylon_find_jdk
export JAVA_HOME
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT

# no install (~/.m2 is shared); password4j is a test dependency of the manager, hence the test scope
nice -n 10 ./mvnw -B -q -o -pl manager -am package -DskipTests dependency:build-classpath -Dmdep.includeScope=test \
  -Dmdep.outputFile="$OUT/cp.txt" >/dev/null
CP="$ROOT/manager/target/classes:$(cat "$OUT/cp.txt")"
JAVA_OPTS=${JAVA_OPTS:--XX:+UseSerialGC -Xms16m -Xmx192m -Xss512k -XX:MinHeapFreeRatio=10 -XX:MaxHeapFreeRatio=20}
echo "uptime: $(uptime)"
# shellcheck disable=SC2086
"$PYLON_JAVA" $JAVA_OPTS -cp "$CP" "$ROOT/bench/auth/Argon2Bench.java" "${MEMORY:-19456}" "${ITERATIONS:-2}" \
  "${PARALLELISM:-1}" "${WARMUP:-10}" "${ROUNDS:-25}"
echo "uptime: $(uptime)"
