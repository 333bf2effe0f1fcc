#!/usr/bin/env bash
# Silent connections: a Worker whose connection cap (100) is filled by clients that connect and send nothing (plain)
# or half a TLS hello (TLS listener), with the idle timeout at 3 s. Prints how long a health request then waits.
# Usage: bench/hostile/silent.sh [rounds]
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"
ROUNDS=${1:-3}
ADDR=${ADDR:-127.0.14.2}
./pylon settings >/dev/null   # builds the distribution when the sources changed
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
openssl req -x509 -newkey rsa:2048 -nodes -subj /CN=silent -days 1 -keyout "$WORK/tls.key" -out "$WORK/tls.crt" \
  2>/dev/null
free_port() {
  python3 -c "import socket; s=socket.socket(); s.bind(('$ADDR', 0)); print(s.getsockname()[1])"
}
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for scheme in plain tls; do
  for round in $(seq "$ROUNDS"); do
    port=$(free_port)
    if [ "$scheme" = tls ]; then
      export PYLON_WORKER_TLS_CERTIFICATE_FILE="$WORK/tls.crt" PYLON_WORKER_TLS_KEY_FILE="$WORK/tls.key"
    fi
    PYLON_DATA_DIR="$WORK/data" PYLON_SERVER_MAX_CONNECTIONS=100 PYLON_SERVER_IDLE_TIMEOUT=3s \
      ./pylon run worker --pod-name "silent-$round" --bind "$ADDR" --port "$port" > "$WORK/pod.log" 2>&1 &
    pod=$!
    echo "$scheme round=$round $(python3 bench/hostile/silent.py "$ADDR" "$port" 100 "$scheme")"
    kill -TERM "$pod"
    wait "$pod" || true
  done
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
