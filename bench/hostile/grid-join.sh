#!/usr/bin/env bash
# Grid trust and heap-dump stalls: one real Cache pod on 127.15.0.1 in one JVM; a stock Hazelcast
# client tries to join with what a viewer sees; a heap-dump reader stalls, and the time until the next dump is
# accepted is measured. Usage: bench/hostile/grid-join.sh [stall-timeout, default 5s] [rounds, default 5]
set -euo pipefail
cd "$(dirname "$0")/../.."
export JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
JAVA="$JAVA_HOME/bin/java"
# package (never install: ~/.m2 is shared); the reactor resolves core and cache-client to their target/classes
./mvnw -B -q -o -pl cache -am package dependency:build-classpath -DskipTests \
  -Dmdep.outputFile=target/bench-hostile.cp -Dmdep.includeScope=runtime
CP="cache/target/classes:$(cat cache/target/bench-hostile.cp)"
echo "load average before: $(uptime | sed 's/.*load average: //')"
"$JAVA" -Xmx256m \
  --add-modules java.se --add-exports java.base/jdk.internal.ref=ALL-UNNAMED --add-opens java.base/java.lang=ALL-UNNAMED \
  --add-opens java.base/sun.nio.ch=ALL-UNNAMED --add-opens java.management/sun.management=ALL-UNNAMED \
  --add-opens jdk.management/com.sun.management.internal=ALL-UNNAMED \
  -cp "$CP" bench/hostile/GridJoin.java "${1:-5s}" "${2:-5}" 2>/dev/null
echo "load average after: $(uptime | sed 's/.*load average: //')"
