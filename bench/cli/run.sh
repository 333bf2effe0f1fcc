#!/usr/bin/env bash
# Issue 19 benchmark: `./pylon pods` end to end (launcher, JVM start, login context read, the Manager's console
# broadcasting jvm/threads/health/connections to 2 Worker and 2 Cache pods, table printed), against a platform of
# real pods started here the way `./pylon run` starts them, on 127.0.18.x (Manager .1:8080, Cache .2-.3:8090,
# Worker .4-.5:8091). Prints the median and spread of N rounds per launcher variant, and the load average.
# Usage: bench/cli/run.sh [rounds]     (default 15)
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"
. scripts/jdk.sh
. scripts/pod-jvm.sh
pylon_find_jdk
ROUNDS=${1:-15}
[ -d distribution/target/pylon/lib ] || ./pylon settings >/dev/null
LIB="$ROOT/distribution/target/pylon/lib"
CDS="$ROOT/distribution/target/pylon/cds"
mkdir -p "$CDS"
WORK=$(mktemp -d)
PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${PIDS[@]}"; do while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done; done
  rm -rf "$WORK"
}
trap cleanup EXIT

NET=127.0.18
ENV_ID=$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')
ADMIN_PASSWORD=$(head -c 24 /dev/urandom | base64 | tr -d '/+=')
CACHE_PEERS="cache-0=http://$NET.2:8090,cache-1=http://$NET.3:8090"
WORKER_PEERS="worker-0=http://$NET.4:8091,worker-1=http://$NET.5:8091"
GRID="$NET.2:5701,$NET.3:5701"

start_pod() { # module name address port [VAR=value...]
  local module=$1 name=$2 addr=$3 port=$4
  shift 4
  mkdir -p "$WORK/data/$name"
  # shellcheck disable=SC2046,SC2086
  env PYLON_ENVIRONMENT_NAME=local PYLON_ENVIRONMENT_ID="$ENV_ID" PYLON_DATA_DIR="$WORK/data/$name" "$@" \
    "$PYLON_JAVA" $PYLON_POD_JVM_OPTS $(pylon_pod_cds_opts "$CDS/$module.jsa" "$LIB") \
    -cp "$LIB/*" io.pylon.distribution.PylonCli run "$module" --pod-name "$name" --bind "$addr" --port "$port" \
    > "$WORK/$name.log" 2>&1 &
  PIDS+=($!)
}

start_pod manager manager-0 $NET.1 8080 PYLON_MANAGER_ADMIN_USERNAME=admin PYLON_MANAGER_ADMIN_PASSWORD="$ADMIN_PASSWORD" \
  PYLON_MANAGER_BOOTSTRAP_ENVIRONMENT_TYPE=local \
  PYLON_MANAGER_BOOTSTRAP_ENVIRONMENT_URLS="manager=http://$NET.1:8080,worker=http://$NET.4:8091,cache=http://$NET.2:8090"
start_pod cache cache-0 $NET.2 8090 PYLON_DISCOVERY_STATIC="$CACHE_PEERS" PYLON_GRID_MEMBERS="$GRID"
start_pod cache cache-1 $NET.3 8090 PYLON_DISCOVERY_STATIC="$CACHE_PEERS" PYLON_GRID_MEMBERS="$GRID"
start_pod worker worker-0 $NET.4 8091 PYLON_DISCOVERY_STATIC="$WORKER_PEERS" PYLON_CACHE_ADDRESSES="$GRID"
start_pod worker worker-1 $NET.5 8091 PYLON_DISCOVERY_STATIC="$WORKER_PEERS" PYLON_CACHE_ADDRESSES="$GRID"
for url in http://$NET.1:8080 http://$NET.2:8090 http://$NET.3:8090 http://$NET.4:8091 http://$NET.5:8091; do
  for _ in $(seq 1 600); do curl -sf -o /dev/null "$url/platform/management/health/ready" && break; sleep 0.25; done
done

export PYLON_CONFIG="$WORK/config"
echo "$ADMIN_PASSWORD" | ./pylon login "http://$NET.1:8080" --username admin --password-stdin >/dev/null

measure() { # label, then the environment for the launcher
  local label=$1
  shift
  env "$@" ./pylon pods >/dev/null 2>&1 || true   # warm-up: writes the CLI's class-data-sharing archive
  env "$@" ./pylon pods >/dev/null 2>&1 || true
  local times=() t0
  for _ in $(seq 1 "$ROUNDS"); do
    t0=$(date +%s%N)
    env "$@" ./pylon pods >/dev/null
    times+=($(( ($(date +%s%N) - t0) / 1000000 )))
  done
  local sorted
  sorted=$(printf '%s\n' "${times[@]}" | sort -n)
  printf '| %s | %s | %s | %s |\n' "$label" "$(echo "$sorted" | sed -n "$(( (ROUNDS + 1) / 2 ))p")" \
    "$(echo "$sorted" | head -n 1)" "$(echo "$sorted" | tail -n 1)"
}

echo "load average before: $(uptime | sed 's/.*load average: //')"
printf '| launcher variant | pylon pods median (ms) | min | max |\n|---|---|---|---|\n'
measure "default (C1 only, serial GC, CDS archive cds/cli.jsa)"
measure "no JVM options (PYLON_CLI_JAVA_OPTS=)" PYLON_CLI_JAVA_OPTS=
time_java() { # the JVM alone, no Manager call: what start-up costs
  local t0 times=()
  for _ in $(seq 1 "$ROUNDS"); do
    t0=$(date +%s%N)
    ./pylon config current-context >/dev/null
    times+=($(( ($(date +%s%N) - t0) / 1000000 )))
  done
  printf '| %s | %s | | |\n' "pylon config current-context (no network; launcher + JVM only)" \
    "$(printf '%s\n' "${times[@]}" | sort -n | sed -n "$(( (ROUNDS + 1) / 2 ))p")"
}
time_java
echo "load average after: $(uptime | sed 's/.*load average: //')"
echo "rounds per variant: $ROUNDS; CPUs: $(nproc)"
