#!/usr/bin/env bash
# Durability: does every write the Manager acknowledged survive kill -9, and what does durability cost?
#   bench/hostile/kill9.sh        (from anywhere; ./pylon builds the distribution when the sources changed)
# RUNS (5) times per mode: start `./pylon run manager --bind 127.0.12.1 --port <free>` on a fresh data directory,
# create users and personal tokens (every third token revoked) from THREADS (4) client threads, kill -9 the JVM a
# random 1-3 s after the first acknowledged write, restart it on the same directory and count the acknowledged
# writes that are gone (Argon2id at m=1 MiB, t=1 there: more writes per run). Then LATENCY_ROUNDS (3) rounds of
# sequential creations (TOKENS personal tokens, USERS users, default Argon2id cost) per mode, each on a fresh data
# directory; medians of the rounds, and the size of manager.mv.db after the pod stopped.
# Modes (MODES, default "before nosync after"):
#   before  the old embedded database: H2's default WRITE_DELAY (500 ms), no fsync (the URL the Manager used to build)
#   nosync  WRITE_DELAY=0, no fsync (PYLON_MANAGER_DB_H2_SYNC=false): survives kill -9, not power loss
#   after   the default now: WRITE_DELAY=0 and CHECKPOINT SYNC (fsync) after every write
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"
. scripts/jdk.sh
pylon_find_jdk
BIND=127.0.12.1
RUNS=${RUNS:-5}
THREADS=${THREADS:-4}
TOKENS=${TOKENS:-100}
USERS=${USERS:-10}
LATENCY_ROUNDS=${LATENCY_ROUNDS:-3}
MODES=${MODES:-before nosync after}
PASSWORD="kill9-$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')"
OUT=$(mktemp -d)
POD=
# the pid file, not $POD: the latency rounds start pods in a pipeline's subshell
trap '[ -s "$OUT/pod.pid" ] && kill -9 "$(cat "$OUT/pod.pid")" 2>/dev/null; rm -rf "$OUT"' EXIT

./pylon settings >/dev/null # builds the distribution if needed, outside the measurements
JAVAC="$(dirname "$PYLON_JAVA")/javac"
"$JAVAC" -d "$OUT/client" "$ROOT/bench/hostile/Kill9Client.java"
CLIENT=("$PYLON_JAVA" -cp "$OUT/client" Kill9Client)

free_port() {
  python3 -c "import socket; s=socket.socket(); s.bind(('$BIND', 0)); print(s.getsockname()[1]); s.close()"
}

start_pod() { # mode, data dir
  local mode=$1 data=$2
  PORT=$(free_port)
  local env=(PYLON_DATA_DIR="$data" PYLON_MANAGER_ADMIN_PASSWORD="$PASSWORD" "${POD_ENV[@]}")
  case "$mode" in
    before) env+=(PYLON_MANAGER_DB_URL="jdbc:h2:file:$data/manager;DB_CLOSE_ON_EXIT=FALSE" PYLON_MANAGER_DB_USER=pylon
                  PYLON_MANAGER_DB_H2_SYNC=false) ;;
    nosync) env+=(PYLON_MANAGER_DB_H2_SYNC=false) ;;
    after) ;;
    *) echo "unknown mode $mode"; exit 1 ;;
  esac
  env "${env[@]}" ./pylon run manager --pod-name kill9 --bind "$BIND" --port "$PORT" >"$OUT/pod.log" 2>&1 &
  POD=$!
  echo "$POD" >"$OUT/pod.pid"
  for _ in $(seq 1 600); do
    grep -q "listening on" "$OUT/pod.log" 2>/dev/null && return 0
    kill -0 "$POD" 2>/dev/null || break
    sleep 0.1
  done
  cat "$OUT/pod.log"; exit 1
}
stop_pod() { kill "$POD" 2>/dev/null || true; wait "$POD" 2>/dev/null || true; POD=; : >"$OUT/pod.pid"; }
base() { echo "http://$BIND:$PORT"; }

echo "uptime: $(uptime)"
# the kill runs are about what reaches the disk: a cheap (but real) Argon2id lets more writes land per second
POD_ENV=(PYLON_MANAGER_PASSWORD_ARGON2_MEMORY=1024 PYLON_MANAGER_PASSWORD_ARGON2_ITERATIONS=1)
for mode in $MODES; do
  echo "== kill -9 durability, mode $mode: $RUNS runs, $THREADS client threads"
  total_ack=0; total_lost=0
  for run in $(seq 1 "$RUNS"); do
    data="$OUT/data-$mode-$run"
    start_pod "$mode" "$data"
    rm -f "$OUT/acks"
    "${CLIENT[@]}" write "$(base)" "$PASSWORD" "$THREADS" "$OUT/acks" &
    writer=$!
    until [ -s "$OUT/acks" ]; do # the writes have begun
      kill -0 "$writer" 2>/dev/null || { echo "the writer stopped before any write; pod log:"; cat "$OUT/pod.log"; exit 1; }
      sleep 0.05
    done
    sleep "$(awk -v r=$RANDOM 'BEGIN { printf "%.2f", 1 + 2 * r / 32767 }')"
    kill -9 "$POD"; wait "$POD" 2>/dev/null || true; POD=; : >"$OUT/pod.pid"
    wait "$writer" || true
    start_pod "$mode" "$data"
    result=$("${CLIENT[@]}" check "$(base)" "$PASSWORD" "$OUT/acks") || { echo "check failed; pod log:"; cat "$OUT/pod.log"; exit 1; }
    stop_pod
    echo "run $run: $result"
    ack=${result#acknowledged=}; ack=${ack%% *}; lost=${result##*lost=}
    total_ack=$((total_ack + ack)); total_lost=$((total_lost + lost))
  done
  echo "mode $mode total: acknowledged=$total_ack lost=$total_lost"
done

POD_ENV=()
echo "== write latency (sequential; $TOKENS personal tokens, $USERS users per round; Argon2id defaults)"
echo "uptime: $(uptime)"
for round in $(seq 1 "$LATENCY_ROUNDS"); do
  for mode in $MODES; do
    start_pod "$mode" "$OUT/latency-$mode-$round"
    result=$("${CLIENT[@]}" latency "$(base)" "$PASSWORD" "$TOKENS" "$USERS")
    stop_pod
    echo "round $round $mode: $result file_kib=$(du -k "$OUT/latency-$mode-$round/manager.mv.db" | cut -f1)"
  done
done | tee "$OUT/latency"
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
for mode in $MODES; do
  for key in token_create_median_ms token_create_p90_ms user_create_median_ms user_create_p90_ms file_kib; do
    echo "median of rounds, $mode: $key=$(grep " $mode: " "$OUT/latency" | tr ' ' '\n' | grep "^$key=" | cut -d= -f2 | median)"
  done
done
echo "uptime: $(uptime)"
