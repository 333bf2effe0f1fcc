#!/usr/bin/env bash
# The container figures (BENCHMARKS.md, "Containers"): runs the deploy tests, which print "figure:"
# lines (image size, podman run to first health 200 per pod, RSS against the memory limit, restart with the CDS
# archive, kube-apiserver start to /readyz), then the cached API server's build time. Usage: bench/containers/run.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
. scripts/jdk.sh
pylon_find_jdk
echo "load before: $(uptime)"
./mvnw -B -o -pl deploy-tests -am verify -Dtest='ContainersTest,ManifestsOnApiServerTest,DiscoveryOnApiServerTest' \
  -Dsurefire.failIfNoSpecifiedTests=false 2>&1 | tee /tmp/pylon-bench-containers.log | grep -E 'Tests run:|FAIL' || true
grep -h '^figure:' deploy-tests/target/surefire-reports/*-output.txt 2>/dev/null || grep -h 'figure:' /tmp/pylon-bench-containers.log
echo "kube-apiserver cold build: $(cat "${PYLON_CACHE:-$HOME/.cache/pylon}/k8s/bin/kube-apiserver.ok")"
echo "load after: $(uptime)"
