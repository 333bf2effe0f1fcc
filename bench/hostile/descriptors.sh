#!/usr/bin/env bash
# Descriptor exhaustion: a Worker pod with 256 descriptors (prlimit) flooded with idle connections. Per case and round:
# open up to 1000 connections, hold them, close them, then time the first 200 on liveness; prints the descriptors
# the pod held at the peak and after. Cases: the default connection cap (half the descriptor limit) and a cap above
# the limit, where accept fails with EMFILE and the listener is restarted.
# Usage: bench/hostile/descriptors.sh [rounds]
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"
ROUNDS=${1:-3}
ADDR=${ADDR:-127.0.14.1}
./pylon settings >/dev/null   # builds the distribution when the sources changed (not under the low limit)
# The pod's own JVM options without its start-up cache: an AOT cache has the JVM open every jar of the class path at
# start (about 260 descriptors), more than the limit here. Without one, ./pylon runs the JVM in its own process, so $!
# below is the pod whose descriptors are counted and which is stopped.
# shellcheck source=scripts/pod-jvm.sh
. scripts/pod-jvm.sh
PYLON_POD_JAVA_OPTS="$(pylon_pod_jvm_opts worker)"
export PYLON_POD_JAVA_OPTS
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

free_port() {
  python3 -c "import socket; s=socket.socket(); s.bind(('$ADDR', 0)); print(s.getsockname()[1])"
}

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for cap in default 100000; do
  for round in $(seq "$ROUNDS"); do
    port=$(free_port)
    if [ "$cap" = default ]; then unset PYLON_SERVER_MAX_CONNECTIONS; else export PYLON_SERVER_MAX_CONNECTIONS=$cap; fi
    PYLON_DATA_DIR="$WORK/data" prlimit --nofile=256:256 ./pylon run worker --pod-name "fd-$round" --bind "$ADDR" \
      --port "$port" > "$WORK/pod.log" 2>&1 &
    pod=$!
    result=$(python3 bench/hostile/exhaust.py "$ADDR" "$port" "$pod" 1000)
    restarts=$(grep -c 'accepts connections again' "$WORK/pod.log" || true)
    echo "cap=$cap round=$round $result listener_restarts=$restarts"
    kill -TERM "$pod"
    wait "$pod" || true
  done
done
unset PYLON_SERVER_MAX_CONNECTIONS
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
