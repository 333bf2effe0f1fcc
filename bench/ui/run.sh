#!/usr/bin/env bash
# Manager UI benchmark: sign-in to a fully rendered Server Management screen in headless Chromium, with 4 pods
# (2 Worker + 2 Cache) and 32 pods (16 + 16), all on loopback in one JVM. Needs /usr/bin/chromium and node.
# Usage: bench/ui/run.sh [runs]   (default 7 measured sign-ins per size after 3 warm-up ones; medians go to BENCHMARKS.md)
set -euo pipefail
cd "$(dirname "$0")/../.."
runs="${1:-7}"
export JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
./mvnw -B -q -pl distribution test-compile dependency:build-classpath \
  -Dmdep.outputFile=target/bench-ui.classpath -Dmdep.includeScope=test >/dev/null
cp="$PWD/distribution/target/test-classes:$PWD/distribution/target/classes:$(cat distribution/target/bench-ui.classpath)"
for size in "2 2" "16 16"; do
  # shellcheck disable=SC2086
  (cd distribution && "$JAVA_HOME/bin/java" -Xmx4g -cp "$cp" io.pylon.distribution.e2e.UiBenchmark $size "$runs") \
    2>/dev/null | grep -E '^(BENCH|platform)|FAILED'
done
