#!/usr/bin/env bash
# WebSocket benchmark of the Worker, beside nginx, on loopback:
#  1. idle tunnels: COUNT WebSocket connections opened through one Worker (heap capped at 128 MB) to an echo upstream
#     and held; the Worker's heap after a full GC, its RSS and the tunnels it counts are read while they are open, and
#     the heap per tunnel (against the heap after a full GC before any opened) with what 10,000 would take at that rate.
#  2. echo round trip at RATE messages/s (open loop, spread over 10 connections): through the Worker and through
#     nginx (proxy_http_version 1.1 + Upgrade/Connection headers) to the same upstream, interleaved, ROUNDS rounds.
#   bench/worker/websocket.sh [count] [rate] [seconds] [rounds]
# The upstream is Helidon's WebSocket server in its own JVM. Each tunnel holds two descriptors in the Worker (client
# and upstream sockets): with a descriptor limit of 20,000 at most ~9,500 tunnels fit in one process, so COUNT
# defaults to 9,000. KEEP_LOGS=<dir> keeps the processes' logs there. Binds BENCH_ADDR (default 127.0.41.1). Needs nginx, curl, jcmd and a JDK >= 21 (JAVA_HOME).
set -euo pipefail
trap 'echo "bench/worker/websocket.sh: failed at line $LINENO: $BASH_COMMAND" >&2' ERR
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=scripts/pod-jvm.sh
. "$ROOT/scripts/pod-jvm.sh"
COUNT=${1:-9000}
RATE=${2:-1000}
SECONDS_PER_RUN=${3:-20}
ROUNDS=${4:-3}
ADDR=${BENCH_ADDR:-127.0.41.1}
case "$ADDR" in 127.*) ;; *) echo "BENCH_ADDR must be a loopback address" >&2; exit 1 ;; esac
UPSTREAM_PORT=18190
NGINX_PORT=18191
WORKER_PORT=18192
JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
WORK=$(mktemp -d /tmp/pylon-bench-ws.XXXXXX)
PIDS=()
cleanup() { # never waits on a process: what does not stop on TERM within 3 s is killed
  for pid in "${PIDS[@]}"; do pkill -P "$pid" 2>/dev/null || true; kill "$pid" 2>/dev/null || true; done
  sleep 3
  for pid in "${PIDS[@]}"; do kill -9 "$pid" 2>/dev/null || true; done
  if [ -n "${KEEP_LOGS:-}" ]; then mkdir -p "$KEEP_LOGS" && cp "$WORK"/*.log "$WORK"/*.out "$WORK"/*.err "$KEEP_LOGS"/ 2>/dev/null; fi
  rm -rf "$WORK"
}
trap cleanup EXIT
# the whole run is bounded: it stops itself after 40 minutes
( sleep 2400; echo "bench/worker/websocket.sh: time limit reached" >&2; kill -TERM $$ ) & PIDS+=($!)

# class path: the Worker and its test dependencies (Helidon's WebSocket server for the upstream); no mvn install
# (no static analysis: the build of a benchmark need not wait for it)
if ! nice -n 10 "$ROOT/mvnw" -B -q -o -f "$ROOT/pom.xml" -pl worker -am package dependency:build-classpath -DskipTests -DskipErrorProne \
    -Dmdep.includeScope=test -Dmdep.outputFile="$WORK/cp.txt" > "$WORK/build.log" 2>&1; then
  grep -v '^WARNING' "$WORK/build.log" >&2; exit 1
fi
CP="$ROOT/worker/target/classes:$(cat "$WORK/cp.txt")"
"$JAVA_HOME/bin/javac" -cp "$CP" -d "$WORK/classes" "$ROOT/bench/worker/WsBench.java" "$ROOT/bench/worker/StartWorker.java"
CP="$WORK/classes:$CP"

"$JAVA_HOME/bin/java" -Xmx512m -cp "$CP" WsBench upstream "$ADDR" $UPSTREAM_PORT > "$WORK/upstream.log" 2>&1 &
PIDS+=($!)

cat > "$WORK/routes.yaml" <<ROUTES
routes:
  - name: ws
    pathPrefix: /ws
    upstreams: [http://$ADDR:$UPSTREAM_PORT]
ROUTES
PYLON_SERVER_BIND=$ADDR PYLON_SERVER_PORT=$WORKER_PORT PYLON_POD_NAME=worker-bench-ws \
PYLON_ENVIRONMENT_ID=0123456789abcdef01234567 PYLON_DATA_DIR="$WORK/worker.data" \
PYLON_WORKER_ROUTES_FILE="$WORK/routes.yaml" PYLON_SERVER_MAX_CONNECTIONS=9700 \
  "$JAVA_HOME/bin/java" $PYLON_POD_JVM_OPTS -Xms128m -Xmx128m -cp "$CP" StartWorker > "$WORK/worker.log" 2>&1 &
WORKER_PID=$!
PIDS+=($WORKER_PID)

mkdir -p "$WORK/nginx"
cat > "$WORK/nginx/nginx.conf" <<NGINX
worker_processes 1;
pid $WORK/nginx/nginx.pid;
error_log $WORK/nginx/error.log warn;
daemon off;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path $WORK/nginx; proxy_temp_path $WORK/nginx; fastcgi_temp_path $WORK/nginx;
  uwsgi_temp_path $WORK/nginx; scgi_temp_path $WORK/nginx;
  server {
    listen $ADDR:$NGINX_PORT;
    location / {
      proxy_pass http://$ADDR:$UPSTREAM_PORT;
      proxy_http_version 1.1;
      proxy_set_header Upgrade \$http_upgrade;
      proxy_set_header Connection "upgrade";
      proxy_read_timeout 600s;
    }
  }
}
NGINX
nginx -p "$WORK/nginx" -c "$WORK/nginx/nginx.conf" &
PIDS+=($!)

for i in $(seq 1 300); do
  curl -sf -o /dev/null "http://$ADDR:$WORKER_PORT/platform/management/health" && break
  sleep 0.2
done
sleep 1
heap_after_gc_mb() { # the serial collector's generations (young and old), not Metaspace
  "$JAVA_HOME/bin/jcmd" $WORKER_PID GC.run > /dev/null
  sleep 1
  "$JAVA_HOME/bin/jcmd" $WORKER_PID GC.heap_info | awk '/^(DefNew|Tenured)/ { for (i = 1; i <= NF; i++) if ($i == "used") { v = $(i+1); sub(/K,?/, "", v); kb += v } } END { print int(kb / 1024) }'
}
BASE_HEAP=$(heap_after_gc_mb)

echo "== idle tunnels: $COUNT through one Worker (-Xmx128m) ==" >&2
"$JAVA_HOME/bin/java" -Xmx1g -cp "$CP" WsBench idle "ws://$ADDR:$WORKER_PORT/ws/echo" "$COUNT" 90 > "$WORK/idle.out" 2>"$WORK/idle.err" &
IDLE_PID=$!
PIDS+=($IDLE_PID)
OPEN_START=$(date +%s)
for i in $(seq 1 2400); do grep -q '^open' "$WORK/idle.out" && break; sleep 0.5; done
OPEN_SECONDS=$(( $(date +%s) - OPEN_START ))
cat "$WORK/idle.out" >&2
echo "opened in ${OPEN_SECONDS}s; client errors: $(grep -c 'connect failed' "$WORK/idle.err" || true)" >&2
TUNNELS=$(curl -s --max-time 60 "http://$ADDR:$WORKER_PORT/platform/management/metrics" \
  | awk '/^pylon_worker_websocket_tunnels /{print $2}' || true)
HEAP=$(heap_after_gc_mb)
PER_TUNNEL_KB=$(awk -v h="$HEAP" -v b="$BASE_HEAP" -v n="${TUNNELS:-0}" 'BEGIN { if (n > 0) printf "%.1f", (h - b) * 1024 / n; else print "?" }')
AT_10000=$(awk -v b="$BASE_HEAP" -v k="$PER_TUNNEL_KB" 'BEGIN { if (k != "?") printf "%d", b + k * 10000 / 1024; else print "?" }')
RSS=$(awk '/VmRSS/ {print int($2 / 1024)}' /proc/$WORKER_PID/status)
THREADS=$(awk '/Threads/ {print $2}' /proc/$WORKER_PID/status)
echo "tunnels $TUNNELS heap_after_gc_mb $HEAP (none open: $BASE_HEAP) per_tunnel_kb $PER_TUNNEL_KB rss_mb $RSS os_threads $THREADS" >&2
kill $IDLE_PID 2>/dev/null || true
wait $IDLE_PID 2>/dev/null || true
sleep 3

echo "== echo round trip: $RATE messages/s for ${SECONDS_PER_RUN}s, $ROUNDS rounds ==" >&2
"$JAVA_HOME/bin/java" -cp "$CP" WsBench echo "ws://$ADDR:$WORKER_PORT/ws/echo" "$RATE" 5 10 > /dev/null # warm-up
"$JAVA_HOME/bin/java" -cp "$CP" WsBench echo "ws://$ADDR:$NGINX_PORT/ws/echo" "$RATE" 5 10 > /dev/null
for round in $(seq 1 "$ROUNDS"); do
  for target in worker nginx; do
    port=$WORKER_PORT; [ $target = nginx ] && port=$NGINX_PORT
    echo "$target $("$JAVA_HOME/bin/java" -cp "$CP" WsBench echo "ws://$ADDR:$port/ws/echo" "$RATE" "$SECONDS_PER_RUN" 10)" \
      | tee -a "$WORK/echo.txt" >&2
  done
done
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
W99=$(awk '$1=="worker"{print $9}' "$WORK/echo.txt" | median)
N99=$(awk '$1=="nginx"{print $9}' "$WORK/echo.txt" | median)
W50=$(awk '$1=="worker"{print $7}' "$WORK/echo.txt" | median)
N50=$(awk '$1=="nginx"{print $7}' "$WORK/echo.txt" | median)
echo
echo "| WebSocket | Worker | nginx 1.22 |"
echo "|---|---|---|"
echo "| idle tunnels held (one process) | $TUNNELS | |"
echo "| heap after full GC / RSS | $HEAP MB (none open: $BASE_HEAP MB; $PER_TUNNEL_KB KB per tunnel) / $RSS MB | |"
echo "| heap for 10,000 tunnels at that rate | $AT_10000 MB | |"
echo "| echo p50 at $RATE msg/s (median of $ROUNDS) | $W50 ms | $N50 ms |"
echo "| echo p99 at $RATE msg/s (median of $ROUNDS) | $W99 ms ($(awk -v w="$W99" -v n="$N99" 'BEGIN{printf "%.2f", w/n}')x nginx) | $N99 ms |"
