#!/usr/bin/env bash
# CLI benchmark: `./pylon pods` end to end (launcher, JVM start, login context read, the Manager's console
# broadcasting to 2 Worker and 2 Cache pods, one compare?sections=... per module, table printed), against a platform of
# real pods started here the way `./pylon run` starts them, on 127.0.18.x (Manager .1:8080, Cache .2-.3:8090,
# Worker .4-.5:8091). Prints wall-clock median and range and the CPU time (user+sys of launcher and JVM) of N
# rounds per variant, and the load average before and after.
# Usage: [BENCH_NET=127.0.N] bench/cli/run.sh [rounds]     (default 15 rounds on 127.0.18.x)
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

NET=${BENCH_NET:-127.0.18}   # the loopback /24 of the run (another run on the machine may use the default)
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

median() { sort -n | sed -n "$(( (ROUNDS + 1) / 2 ))p"; }

measure() { # label, then the environment for the launcher, then -- and the pylon arguments
  local label=$1
  shift
  local envs=()
  while [ "$1" != -- ]; do envs+=("$1"); shift; done
  shift
  env "${envs[@]}" ./pylon "$@" >/dev/null 2>&1 || true   # warm-up: writes the CLI's class-data-sharing archive
  env "${envs[@]}" ./pylon "$@" >/dev/null 2>&1 || true
  local wall=() cpu=() t0
  for _ in $(seq 1 "$ROUNDS"); do
    t0=$(date +%s%N)
    /usr/bin/time -f '%U %S' -o "$WORK/time" env "${envs[@]}" ./pylon "$@" >/dev/null
    wall+=($(( ($(date +%s%N) - t0) / 1000000 )))
    cpu+=($(awk '{printf "%d", ($1 + $2) * 1000}' "$WORK/time"))
  done
  printf '| %s | %s | %s-%s | %s |\n' "$label" "$(printf '%s\n' "${wall[@]}" | median)" \
    "$(printf '%s\n' "${wall[@]}" | sort -n | head -n 1)" "$(printf '%s\n' "${wall[@]}" | sort -n | tail -n 1)" \
    "$(printf '%s\n' "${cpu[@]}" | median)"
}

echo "load average before: $(uptime | sed 's/.*load average: //')"
printf '| what | wall median (ms) | wall range | CPU user+sys median (ms) |\n|---|---|---|---|\n'
measure "pylon pods, default launcher (C1 only, serial GC, its start-up cache: AOT on JDK 25, else CDS cds/cli.jsa)" -- pods
measure "pylon pods, no JVM options (PYLON_CLI_JAVA_OPTS=)" PYLON_CLI_JAVA_OPTS= -- pods
measure "pylon config current-context (launcher + JVM, no network)" -- config current-context
if [ "$(pylon_java_major "$PYLON_JAVA")" -ge 25 ] && grep -q pylon_cli_startup_opts scripts/pod-jvm.sh; then
  # on JDK 25 the launcher gives the CLI an AOT cache: against the class-data-sharing archive it gets before JDK 25,
  # round by round in turn (the machine's load moves within a run)
  cds_opts="$PYLON_CLI_JVM_OPTS $(pylon_pod_cds_opts "$CDS/cli.jsa" "$LIB")"
  PYLON_CLI_JAVA_OPTS="$cds_opts" ./pylon pods >/dev/null 2>&1 || true   # writes the archive
  aot=() cds=()
  for _ in $(seq 1 "$ROUNDS"); do
    t0=$(date +%s%N); ./pylon pods >/dev/null; aot+=($(( ($(date +%s%N) - t0) / 1000000 )))
    t0=$(date +%s%N); PYLON_CLI_JAVA_OPTS="$cds_opts" ./pylon pods >/dev/null; cds+=($(( ($(date +%s%N) - t0) / 1000000 )))
  done
  for variant in aot cds; do
    declare -n walls=$variant
    printf '| pylon pods, interleaved with the other: %s | %s | %s-%s | |\n' \
      "$([ $variant = aot ] && echo "AOT cache (the launcher on JDK 25)" || echo "CDS archive cli.jsa (the launcher before JDK 25)")" \
      "$(printf '%s\n' "${walls[@]}" | median)" "$(printf '%s\n' "${walls[@]}" | sort -n | head -n 1)" \
      "$(printf '%s\n' "${walls[@]}" | sort -n | tail -n 1)"
  done
  # the command that records the AOT cache (the first one that reaches a Manager after a build): 3 rounds
  recording=()
  for _ in 1 2 3; do
    rm -f "$CDS"/cli-*.aot
    t0=$(date +%s%N)
    ./pylon pods >/dev/null
    recording+=($(( ($(date +%s%N) - t0) / 1000000 )))
  done
  printf '| pylon pods recording the AOT cache (first command after a build; 3 rounds) | %s | %s-%s | |\n' \
    "$(printf '%s\n' "${recording[@]}" | sort -n | sed -n 2p)" "$(printf '%s\n' "${recording[@]}" | sort -n | head -n 1)" \
    "$(printf '%s\n' "${recording[@]}" | sort -n | tail -n 1)"
fi
# what the launcher's JDK check costs: the release file it reads now against the JVM start it used to make
probe() { # label, command...
  local label=$1 t0 wall=()
  shift
  for _ in $(seq 1 "$ROUNDS"); do
    t0=$(date +%s%N)
    "$@" >/dev/null 2>&1
    wall+=($(( ($(date +%s%N) - t0) / 1000000 )))
  done
  printf '| %s | %s | | |\n' "$label" "$(printf '%s\n' "${wall[@]}" | median)"
}
probe "JDK version from \$JAVA_HOME/release (sed)" sed -n 's/^JAVA_VERSION=//p' "$JAVA_HOME/release"
probe "JDK version from the JVM (java -XshowSettings:properties -version)" "$PYLON_JAVA" -XshowSettings:properties -version
# where the time of `pylon pods` goes: the CLI's own trace (PYLON_CLI_TRACE), ms since the process started (10 ms
# resolution), median per phase
for _ in $(seq 1 "$ROUNDS"); do
  PYLON_CLI_TRACE=1 ./pylon pods 2>&1 >/dev/null | sed -n 's/^pylon trace: //p'
done > "$WORK/trace"
echo
echo "| phase of pylon pods (PYLON_CLI_TRACE) | reached at, median ms since the process started (launcher included) |"
echo "|---|---:|"
for phase in "main" "command line built" "command called" "context read" "environment known" "pods read" "command done"; do
  printf '| %s | %s |\n' "$phase" "$(awk -v p="$phase" '{ ms = $1; $1 = ""; $2 = ""; sub(/^  /, ""); if ($0 == p) print ms }' "$WORK/trace" | median)"
done
echo "load average after: $(uptime | sed 's/.*load average: //')"
echo "rounds per variant: $ROUNDS; CPUs: $(nproc)"
