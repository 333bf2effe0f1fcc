#!/usr/bin/env bash
# Graceful shutdown: SIGTERM on a Worker pod under wrk -c32 (kept-alive connections). Per shutdown delay (0s, 5s) and
# round: start `./pylon run worker` on 127.0.14.1 and a free port, run wrk on the liveness endpoint, send SIGTERM
# 3 s in, print wrk's socket errors (connect errors after the listener closed are expected; read, write and
# timeout errors mean a request was cut) and the pod's last log line.
# Usage: bench/hostile/sigterm.sh [rounds]   (needs wrk: apt-get install wrk)
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"
ROUNDS=${1:-3}
ADDR=${ADDR:-127.0.14.1}
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install wrk" >&2; exit 1; }
./pylon settings >/dev/null   # builds the distribution when the sources changed
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

free_port() {
  python3 -c "import socket; s=socket.socket(); s.bind(('$ADDR', 0)); print(s.getsockname()[1])"
}

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for delay in 0s 5s; do
  for round in $(seq "$ROUNDS"); do
    port=$(free_port)
    PYLON_SHUTDOWN_DELAY=$delay PYLON_DATA_DIR="$WORK/data" ./pylon run worker --pod-name "sigterm-$round" \
      --bind "$ADDR" --port "$port" > "$WORK/pod.log" 2>&1 &
    pod=$!
    url="http://$ADDR:$port/platform/management/health/live"
    until curl -sf -o /dev/null "$url"; do sleep 0.05; done
    wrk -t2 -c32 -d$(( ${delay%s} + 6 ))s -T5s "$url" > "$WORK/wrk.txt" 2>&1 &
    load=$!
    sleep 3
    kill -TERM "$pod"
    wait "$load"
    wait "$pod" || true
    requests=$(awk '/requests in/ {print $1}' "$WORK/wrk.txt")
    errors=$(grep -o 'Socket errors:.*' "$WORK/wrk.txt" || echo "Socket errors: none")
    non2xx=$(grep -o 'Non-2xx or 3xx responses: [0-9]*' "$WORK/wrk.txt" || echo "Non-2xx or 3xx responses: 0")
    echo "delay=$delay round=$round requests=$requests | $errors | $non2xx | pod: $(tail -n 1 "$WORK/pod.log" | cut -c25-)"
  done
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
