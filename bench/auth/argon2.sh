#!/usr/bin/env bash
# Argon2id side by side: Bouncy Castle's Argon2BytesGenerator with a shared FixedBlockPool (what the Manager uses)
# against Pylon's former hand-written Argon2id (compiled here from git history, commit FORMER), in one JVM:
# per hash on one thread (CPU, wall, bytes allocated), then a login flood through a pool shaped like the Manager's
# hashing pool (HashingPool.defaultThreads: one less than the processors, 1 to 4; queue 8).
#   bench/auth/argon2.sh            (from the repository root; about 2 minutes)
# Environment: MEMORY (KiB, 19456), ITERATIONS (2), PARALLELISM (1), WARMUP (10), ROUNDS (25), THREADS (the
# Manager's default), CLIENTS (16), FLOOD_SECONDS (10), FLOOD_ROUNDS (3), FORMER (a commit with the former code),
# JAVA_OPTS (the pods' defaults: -XX:+UseSerialGC -Xms16m -Xmx192m ...).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"
. scripts/jdk.sh
pylon_find_jdk
export JAVA_HOME
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
FORMER=${FORMER:-ea9a2dc}
SRC=manager/src/main/java/io/pylon/manager/auth/argon2
mkdir -p "$OUT/src" "$OUT/classes"
for file in Argon2Cost Argon2id Blake2b ThreadLocalArgon2id; do   # deleted since, hence from git
  git show "$FORMER:$SRC/$file.java" > "$OUT/src/$file.java"
done
# the Bouncy Castle version the manager module pins, copied out of the local Maven repository
VERSION=$(grep -A2 '<artifactId>bcprov-jdk18on</artifactId>' manager/pom.xml | sed -n 's:.*<version>\(.*\)</version>.*:\1:p')
./mvnw -B -q -N dependency:copy -Dartifact="org.bouncycastle:bcprov-jdk18on:$VERSION" -DoutputDirectory="$OUT" \
  >/dev/null 2>&1
BC="$OUT/bcprov-jdk18on-$VERSION.jar"
"$JAVA_HOME/bin/javac" --release 21 -d "$OUT/classes" "$OUT"/src/*.java
CP="$OUT/classes:$BC"
JAVA_OPTS=${JAVA_OPTS:--XX:+UseSerialGC -Xms16m -Xmx192m -Xss512k -XX:MinHeapFreeRatio=10 -XX:MaxHeapFreeRatio=20}
PROCESSORS=$(nproc)
DEFAULT_THREADS=$(( PROCESSORS - 1 < 1 ? 1 : (PROCESSORS - 1 > 4 ? 4 : PROCESSORS - 1) ))
echo "uptime: $(uptime)"
# shellcheck disable=SC2086
"$PYLON_JAVA" $JAVA_OPTS -cp "$CP" "$ROOT/bench/auth/Argon2Bench.java" "${MEMORY:-19456}" \
  "${ITERATIONS:-2}" "${PARALLELISM:-1}" "${WARMUP:-10}" "${ROUNDS:-25}" "${THREADS:-$DEFAULT_THREADS}" \
  "${CLIENTS:-16}" "${FLOOD_SECONDS:-10}" "${FLOOD_ROUNDS:-3}"
echo "uptime: $(uptime)"
