#!/usr/bin/env bash
# Bounds on what diagnostics callers can make a pod do, measured side by side on Worker pods (./pylon run) with a
# 48 MiB data budget: "bounded" with the default settings, "unbounded" with the limits raised out of the way (what a
# pod did before they existed).
#  1. A flood of 1 s flight recordings (maxSizeMb=4), started back to back for FLOOD_SECONDS, each call naming another
#     caller and the pod's own rate lifted, so that the data budget is what holds: files and bytes in the recordings
#     folder at the peak, recordings started, refusals (409 one at a time, 507 budget, 429 rate).
#  2. Histograms of live objects (each a full GC) from three callers in turn for HISTO_SECONDS, default limits: calls
#     admitted per caller, 429s, and the pod's collection count.
# Usage: bench/hostile/diagnostics-bounds.sh [flood seconds, default 60] [histogram seconds, default 60]
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"
FLOOD_SECONDS=${1:-60}
HISTO_SECONDS=${2:-60}
ADDR=${ADDR:-127.0.46.10}
ID=bench-diagnostics-bounds-id
./pylon settings >/dev/null   # builds the distribution when the sources changed
WORK=$(mktemp -d)
POD=
cleanup() {
  if [ -n "$POD" ]; then kill -TERM "$POD" 2>/dev/null || true; wait "$POD" 2>/dev/null || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT

free_port() {
  python3 -c "import socket; s=socket.socket(); s.bind(('$ADDR', 0)); print(s.getsockname()[1])"
}

start_pod() { # name, extra env assignments...
  local name=$1; shift
  PORT=$(free_port)
  mkdir -p "$WORK/$name"
  env PYLON_DATA_DIR="$WORK/$name" PYLON_DATA_BUDGET=48Mi PYLON_ENVIRONMENT_ID=$ID "$@" \
    ./pylon run worker --pod-name "$name" --bind "$ADDR" --port "$PORT" > "$WORK/$name.log" 2>&1 &
  POD=$!
  for _ in $(seq 600); do
    curl -fs "http://$ADDR:$PORT/platform/management/health/ready" >/dev/null 2>&1 && return 0
    sleep 0.2
  done
  echo "pod $name did not start"; cat "$WORK/$name.log"; exit 1
}

stop_pod() {
  kill -TERM "$POD"; wait "$POD" || true; POD=
}

call() { # method, name?query -> status
  curl -s -o /dev/null -w '%{http_code}' -X "$1" -H "Authorization: $ID" "http://$ADDR:$PORT/platform/diagnostics/$2"
}

flood() { # name
  local dir="$WORK/$1/recordings" started=0 busy=0 full=0 rate=0 other=0 max_files=0 max_bytes=0 t0 files bytes n=0
  t0=$(date +%s.%N)
  local end=$(( $(date +%s) + FLOOD_SECONDS ))
  while [ "$(date +%s)" -lt "$end" ]; do
    n=$((n + 1))
    case $(call POST "jfr?internal=true&duration=1s&maxSizeMb=4&caller=flood-$n") in
      200) started=$((started + 1)) ;;
      409) busy=$((busy + 1)); sleep 0.1 ;;
      507) full=$((full + 1)); sleep 0.1 ;;
      429) rate=$((rate + 1)); sleep 0.1 ;;
      *) other=$((other + 1)) ;;
    esac
    files=$(find "$dir" -maxdepth 1 -name 'pylon-recording-*' | wc -l)
    bytes=$(du -sb "$dir" | cut -f1)
    [ "$files" -gt "$max_files" ] && max_files=$files
    [ "$bytes" -gt "$max_bytes" ] && max_bytes=$bytes
  done
  printf '%-9s recordings started=%d refused409=%d refused507=%d refused429=%d other=%d peak_files=%d peak_MiB=%.1f (folder incl. JFR repository) in %.0f s\n' \
    "$1" "$started" "$busy" "$full" "$rate" "$other" "$max_files" "$(echo "$max_bytes / 1048576" | bc -l)" \
    "$(echo "$(date +%s.%N) - $t0" | bc -l)"
}

histograms() { # name
  declare -A ok=() refused=()
  local end=$(( $(date +%s) + HISTO_SECONDS )) caller status
  local gc0
  gc0=$(curl -s -H "Authorization: $ID" "http://$ADDR:$PORT/platform/diagnostics/jvm?internal=true" \
        | python3 -c 'import json,sys; print(sum(c["collectionCount"] for c in json.load(sys.stdin)["jvm"]["gc"]))' 2>/dev/null || echo 0)
  while [ "$(date +%s)" -lt "$end" ]; do
    for caller in alice bob carol; do
      status=$(call GET "histogram?internal=true&top=5&caller=$caller")
      if [ "$status" = 200 ]; then ok[$caller]=$(( ${ok[$caller]:-0} + 1 )); else refused[$caller]=$(( ${refused[$caller]:-0} + 1 )); fi
    done
  done
  local gc1
  gc1=$(curl -s -H "Authorization: $ID" "http://$ADDR:$PORT/platform/diagnostics/jvm?internal=true" \
        | python3 -c 'import json,sys; print(sum(c["collectionCount"] for c in json.load(sys.stdin)["jvm"]["gc"]))' 2>/dev/null || echo 0)
  printf '%-9s histograms in %d s: admitted alice=%d bob=%d carol=%d, refused(429) alice=%d bob=%d carol=%d, collections=%d\n' \
    "$1" "$HISTO_SECONDS" "${ok[alice]:-0}" "${ok[bob]:-0}" "${ok[carol]:-0}" "${refused[alice]:-0}" "${refused[bob]:-0}" \
    "${refused[carol]:-0}" "$((gc1 - gc0))"
}

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
start_pod bounded PYLON_DIAGNOSTICS_HEAVY_RATE_PER_POD=100000
flood bounded
stop_pod
start_pod bounded
histograms bounded
stop_pod
start_pod unbounded PYLON_DATA_BUDGET=1Ti PYLON_DATA_RECORDINGS_MAX_COUNT=1000 PYLON_DATA_RECORDINGS_MAX_BYTES=1Ti \
  PYLON_DIAGNOSTICS_HEAVY_RATE_PER_POD=100000 PYLON_DIAGNOSTICS_HEAVY_RATE_PER_CALLER=100000
flood unbounded
histograms unbounded
stop_pod
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
