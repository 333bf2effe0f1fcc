#!/usr/bin/env bash
# Control plane benchmark: a Manager pod (its own JVM, H2) on 127.0.43.1, then in this JVM the Worker's route table
# swap with 1,000 proxies, the Manager's heap with 500 long-pollers parked (jcmd GC.run + GC.heap_info), and deploy
# latency with 2 real Worker pods and 32 simulated long-pollers; then (ReplicasAndTrafficBench) two Manager replicas on
# one PostgreSQL with Workers polling the other replica, and wrk on a Worker with 1,000 proxies during 20 deploys.
# Loopback only (127.0.43.x); bounded to about 10 minutes with the builds. Needs wrk.
# Usage: bench/controlplane/run.sh   (JAVA_HOME must be a JDK >= 21)
set -euo pipefail
cd "$(dirname "$0")/../.."
export JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
JAVA="$JAVA_HOME/bin/java"
# no install (~/.m2 is shared): the reactor's classes, third-party jars from the local repository
./mvnw -B -q -o -pl distribution -am package -DskipTests dependency:build-classpath -Dmdep.outputFile=target/bench-cp.cp \
  -Dmdep.includeScope=runtime
MODULES="core cache-client gateway-model manager worker cache integration portal distribution"
CP=""
for m in $MODULES; do CP="$CP:$m/target/classes"; done
CP="${CP#:}:$(cat distribution/target/bench-cp.cp | tr ':' '\n' | grep -v '/io/pylon/' | paste -sd:)"
STATE=$(mktemp -d /tmp/pylon-bench-cp.XXXXXX)
PASSWORD="bench-Passw0rd-1234"
ID="0123456789abcdef0123beef"
PORT=18080
PYLON_DATA_DIR="$STATE" PYLON_ENVIRONMENT_ID="$ID" PYLON_ENVIRONMENT_NAME=bench \
PYLON_MANAGER_ADMIN_PASSWORD="$PASSWORD" \
PYLON_MANAGER_BOOTSTRAP_ENVIRONMENT_URLS="worker=http://127.0.43.1:1,cache=http://127.0.43.1:2" \
  "$JAVA" -Xmx192m -cp "$CP" io.pylon.distribution.PylonCli run manager --pod-name bench-manager \
  --bind 127.0.43.1 --port "$PORT" > "$STATE/manager.log" 2>&1 &
MANAGER=$!
trap 'kill $MANAGER 2>/dev/null || true; rm -rf "$STATE"' EXIT
for _ in $(seq 1 120); do
  curl -fs "http://127.0.43.1:$PORT/apiops/test/healthcheck" >/dev/null && break
  sleep 0.5
done
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
timeout 200 "$JAVA" -Xmx512m -cp "$CP" bench/controlplane/ControlPlaneBench.java "http://127.0.43.1:$PORT" "$MANAGER" \
  "$PASSWORD" "$ID"
kill $MANAGER 2>/dev/null || true
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
# the replicas need PostgreSQL: the embedded server the Manager's tests start (test classes and test dependencies)
./mvnw -B -q -o -pl manager -am package -DskipTests dependency:build-classpath -Dmdep.outputFile=target/bench-test-cp.cp \
  -Dmdep.includeScope=test
TCP="$CP:core/target/test-classes:manager/target/test-classes:$(tr ':' '\n' < manager/target/bench-test-cp.cp | grep -v '/io/pylon/' | paste -sd:)"
timeout 400 "$JAVA" -Xmx768m -cp "$TCP" bench/controlplane/ReplicasAndTrafficBench.java
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
