#!/usr/bin/env bash
# Data grid benchmark: datagrid diagnostics latency (10 maps x 100k entries) and counter increments from two
# Worker-side clients, against two real Cache pods (Hazelcast members) on 127.6.9.x in one JVM.
# Usage: bench/cache/run.sh [all|datagrid|counters]   (JAVA_HOME must be a JDK >= 21)
set -euo pipefail
cd "$(dirname "$0")/../.."
export JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
JAVA="$JAVA_HOME/bin/java"
# no install (~/.m2 is shared): with -am the class path names the core and cache-client of this tree (their jars in
# target/); each module writes its own target/bench-cache.cp
./mvnw -B -q -o -pl cache -am package -DskipTests dependency:build-classpath -Dmdep.outputFile=target/bench-cache.cp \
  -Dmdep.includeScope=runtime
CP="cache/target/classes:$(cat cache/target/bench-cache.cp)"
exec "$JAVA" -Xmx2g -XX:+UseParallelGC \
  --add-modules java.se --add-exports java.base/jdk.internal.ref=ALL-UNNAMED --add-opens java.base/java.lang=ALL-UNNAMED \
  --add-opens java.base/sun.nio.ch=ALL-UNNAMED --add-opens java.management/sun.management=ALL-UNNAMED \
  --add-opens jdk.management/com.sun.management.internal=ALL-UNNAMED \
  -cp "$CP" bench/cache/GridBench.java "${1:-all}"
