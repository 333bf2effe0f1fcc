#!/usr/bin/env bash
# The Worker against nginx and HAProxy (and Caddy when Debian's package is installed) as reverse proxies of the same
# upstream, side by side: each proxy pinned to CPU 0 (taskset), the upstream (nginx) and wrk pinned to CPU 1, rounds
# interleaved (every proxy once per round and case), medians of the rounds. Two cases: 100-byte responses
# (wrk -c64) and 1 MiB responses (wrk -c16, also errors and the Worker's log lines during the run).
#   bench/worker/peers.sh [seconds-per-run] [rounds]
# BENCH_ADDR: the loopback address every process binds (default 127.0.40.1). Bounded: it stops after its rounds
# (about 2 x rounds x proxies x seconds, plus the Worker's warm-up of 30-120 s) and only ever calls BENCH_ADDR.
# Needs wrk, nginx, haproxy, taskset and a JDK >= 21 (JAVA_HOME). Prints a Markdown table.
set -euo pipefail
trap 'echo "bench/worker/peers.sh: failed at line $LINENO: $BASH_COMMAND" >&2' ERR
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=scripts/pod-jvm.sh
. "$ROOT/scripts/pod-jvm.sh"
# shellcheck source=bench/worker/upstream.sh
. "$ROOT/bench/worker/upstream.sh"
DURATION=${1:-15}
ROUNDS=${2:-3}
ADDR=${BENCH_ADDR:-127.0.40.1}
case "$ADDR" in
  127.*) ;;
  *) echo "BENCH_ADDR must be a loopback address (127.x.y.z), not '$ADDR'" >&2; exit 1 ;;
esac
for tool in wrk nginx haproxy taskset; do
  command -v "$tool" >/dev/null 2>&1 || { echo "$tool is missing (apt-get install -y wrk nginx-light haproxy util-linux)" >&2; exit 1; }
done
[ "$(nproc)" -ge 2 ] || { echo "needs 2 CPUs (proxy on one, upstream and wrk on the other)" >&2; exit 1; }
JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
UPSTREAM_PORT=18180
NGINX_PORT=18181
HAPROXY_PORT=18182
CADDY_PORT=18183
WORKER_PORT=18191
WORK=$(mktemp -d /tmp/pylon-bench-peers.XXXXXX)
chmod 755 "$WORK"
PIDS=()
cleanup() {
  local pid
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null || true; done
  rm -rf "$WORK"
}
trap cleanup EXIT

# the upstream: nginx on CPU 1, a 100-byte answer and a 1 MiB file
mkdir -p "$WORK/up/www"
head -c 1048576 /dev/zero | tr '\0' 'x' > "$WORK/up/www/1m"
SMALL=$(printf '%099d' 0)
start_upstream "$WORK/up" "$ADDR" "$UPSTREAM_PORT" "root $WORK/up/www;
        location = /100b { default_type text/plain; return 200 \"${SMALL}\\n\"; }"
PIDS+=($!)

# nginx as the reverse proxy an operator would configure (keep-alive upstream, streaming), on CPU 0
mkdir -p "$WORK/nginx"
cat > "$WORK/nginx/nginx.conf" <<CONF
worker_processes 1;
pid $WORK/nginx/nginx.pid;
error_log $WORK/nginx/error.log warn;
events { worker_connections 4096; }
http {
    access_log off;
    keepalive_requests 1000000;
    client_body_temp_path $WORK/nginx/cb; proxy_temp_path $WORK/nginx/p; fastcgi_temp_path $WORK/nginx/f;
    uwsgi_temp_path $WORK/nginx/u; scgi_temp_path $WORK/nginx/s;
    upstream api { server $ADDR:$UPSTREAM_PORT; keepalive 128; }
    server {
        listen $ADDR:$NGINX_PORT;
        location / {
            proxy_pass http://api;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;
            proxy_buffering off;
        }
    }
}
CONF
taskset -c 0 nginx -p "$WORK/nginx" -c "$WORK/nginx/nginx.conf" -e "$WORK/nginx/error.log" -g 'daemon off;' &
NGINX_PID=$!
PIDS+=($NGINX_PID)

# HAProxy, one thread on CPU 0, connections to the upstream reused
cat > "$WORK/haproxy.cfg" <<CONF
global
    nbthread 1
    maxconn 4096
defaults
    mode http
    timeout connect 5s
    timeout client 60s
    timeout server 60s
    option forwardfor
    http-reuse always
frontend fe
    bind $ADDR:$HAPROXY_PORT
    default_backend api
backend api
    server up $ADDR:$UPSTREAM_PORT
CONF
taskset -c 0 haproxy -f "$WORK/haproxy.cfg" -db > "$WORK/haproxy.log" 2>&1 &
HAPROXY_PID=$!
PIDS+=($HAPROXY_PID)

CADDY_PID=
if command -v caddy >/dev/null 2>&1; then
  cat > "$WORK/Caddyfile" <<CONF
{
    admin off
    auto_https off
}
http://$ADDR:$CADDY_PORT {
    reverse_proxy $ADDR:$UPSTREAM_PORT { flush_interval -1 }
}
CONF
  HOME="$WORK" GOMAXPROCS=1 taskset -c 0 caddy run --config "$WORK/Caddyfile" --adapter caddyfile > "$WORK/caddy.log" 2>&1 &
  CADDY_PID=$!
  PIDS+=($CADDY_PID)
fi

# the Worker, built from this tree, with the JVM options a pod gets, on CPU 0
if ! nice -n 10 "$ROOT/mvnw" -B -q -o -f "$ROOT/pom.xml" -pl worker -am package dependency:build-classpath -DskipTests \
    -Dmdep.includeScope=runtime -Dmdep.outputFile="$WORK/cp.txt" > "$WORK/build.log" 2>&1; then
  echo "cannot build the Worker (./mvnw -o -pl worker -am package); Maven said:" >&2
  grep -v '^WARNING' "$WORK/build.log" >&2 || true
  exit 1
fi
CP="$ROOT/worker/target/classes:$(cat "$WORK/cp.txt")"
"$JAVA_HOME/bin/javac" -cp "$CP" -d "$WORK/classes" "$ROOT/bench/worker/StartWorker.java"
cat > "$WORK/routes.yaml" <<ROUTES
routes:
  - {name: api, pathPrefix: /, upstreams: [http://$ADDR:$UPSTREAM_PORT]}
ROUTES
PYLON_SERVER_BIND=$ADDR PYLON_SERVER_PORT=$WORKER_PORT PYLON_POD_NAME=worker-bench \
PYLON_ENVIRONMENT_ID=0123456789abcdef01234567 PYLON_DATA_DIR="$WORK/worker.data" \
PYLON_WORKER_ROUTES_FILE="$WORK/routes.yaml" \
  taskset -c 0 "$JAVA_HOME/bin/java" ${WORKER_JAVA_OPTS:-$PYLON_POD_JVM_OPTS $(pylon_pod_heap_opts worker)} \
  -cp "$WORK/classes:$CP" StartWorker > "$WORK/worker.log" 2>&1 &
WORKER_PID=$!
PIDS+=($WORKER_PID)

await() { # port path
  for _ in $(seq 1 200); do
    curl -sf -o /dev/null "http://$ADDR:$1$2" && return 0
    sleep 0.2
  done
  echo "nothing answers on $ADDR:$1$2" >&2; tail -20 "$WORK/worker.log" >&2; exit 1
}
for port in $UPSTREAM_PORT $NGINX_PORT $HAPROXY_PORT $WORKER_PORT ${CADDY_PID:+$CADDY_PORT}; do await "$port" /100b; done

proxy_pids() { # name
  case "$1" in
    nginx) echo "$NGINX_PID $(pgrep -P "$NGINX_PID" | tr '\n' ' ')" ;;
    haproxy) echo "$HAPROXY_PID" ;;
    caddy) echo "$CADDY_PID" ;;
    worker) echo "$WORKER_PID" ;;
  esac
}
proxy_port() {
  case "$1" in nginx) echo $NGINX_PORT ;; haproxy) echo $HAPROXY_PORT ;; caddy) echo $CADDY_PORT ;; worker) echo $WORKER_PORT ;; esac
}
ticks() {
  local total=0 pid
  for pid in "$@"; do total=$((total + $(awk '{print $14 + $15}' "/proc/$pid/stat" 2>/dev/null || echo 0))); done
  echo "$total"
}
HZ=$(getconf CLK_TCK)
# one wrk run: writes name.txt (wrk's output) and name.stats ("requests cpu_ticks log_lines")
run() { # name proxy path connections seconds
  local t0 l0
  t0=$(ticks $(proxy_pids "$2")); l0=$(wc -l < "$WORK/worker.log")
  taskset -c 1 wrk -t1 -c"$4" -d"$5"s --latency "http://$ADDR:$(proxy_port "$2")$3" > "$WORK/$1.txt" 2>&1 || true
  echo "$(awk '/requests in/ {print $1}' "$WORK/$1.txt") $(( $(ticks $(proxy_pids "$2")) - t0 )) $(( $(wc -l < "$WORK/worker.log") - l0 ))" \
    > "$WORK/$1.stats"
}
rps() { awk '/^Requests\/sec/ {print $2}' "$WORK/$1.txt"; }
p99ms() {
  awk '$1 == "99%" { v = $2; if (v ~ /us$/) { sub(/us$/, "", v); v /= 1000 } else if (v ~ /ms$/) { sub(/ms$/, "", v) } else if (v ~ /s$/) { sub(/s$/, "", v); v *= 1000 }; printf "%.2f", v }' "$WORK/$1.txt"
}
errors() {
  awk '/Socket errors/ { gsub(",", ""); n += $4 + $6 + $8 + $10 } /Non-2xx/ { n += $NF } END { print n + 0 }' "$WORK/$1.txt"
}
cpu_us() { awk -v hz="$HZ" '{ if ($1 > 0) printf "%.1f", $2 / hz * 1e6 / $1; else print "-" }' "$WORK/$1.stats"; }
loglines() { awk '{print $3}' "$WORK/$1.stats"; }

PROXIES="nginx haproxy ${CADDY_PID:+caddy }worker"
echo "warming up the Worker (C2 on a pinned core: 30-120 s)..." >&2
previous=
for step in $(seq 1 12); do
  run warm worker /100b 64 10
  now=$(cpu_us warm)
  echo "  warm-up step $step: Worker $now us of CPU per request" >&2
  if [ "$step" -ge 3 ] && awk -v a="$now" -v b="$previous" 'BEGIN { exit !(a >= b * 0.97) }'; then break; fi
  previous=$now
done
run warm worker /1m 16 10
for p in $PROXIES; do run "warm-$p" "$p" /100b 64 3; done

LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
for round in $(seq 1 "$ROUNDS"); do
  for p in $PROXIES; do
    run "small-$p-$round" "$p" /100b 64 "$DURATION"
    run "large-$p-$round" "$p" /1m 16 "$DURATION"
  done
  echo "round $round done" >&2
done
LOAD_AFTER=$(cut -d' ' -f1-3 /proc/loadavg)

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
col() { # case proxy function
  for round in $(seq 1 "$ROUNDS"); do "$3" "$1-$2-$round"; echo; done | grep -v '^$' | median
}
echo
echo "| proxy | 100 B req/s | vs nginx | p99 ms | vs nginx | CPU us/req | 1 MiB MiB/s | vs nginx | 1 MiB p99 ms | errors | Worker log lines |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
N_RPS=$(col small nginx rps); N_P99=$(col small nginx p99ms); N_LARGE=$(col large nginx rps)
for p in $PROXIES; do
  r=$(col small "$p" rps); q=$(col small "$p" p99ms); l=$(col large "$p" rps)
  errs=0; lines=0
  for round in $(seq 1 "$ROUNDS"); do
    errs=$((errs + $(errors "small-$p-$round") + $(errors "large-$p-$round")))
    [ "$p" = worker ] && lines=$((lines + $(loglines "small-$p-$round") + $(loglines "large-$p-$round")))
  done
  printf '| %s | %.0f | %.2f | %s | %.2f | %s | %.0f | %.2f | %s | %s | %s |\n' "$p" "$r" \
    "$(awk -v a="$r" -v b="$N_RPS" 'BEGIN { print a / b }')" "$q" "$(awk -v a="$q" -v b="$N_P99" 'BEGIN { print a / b }')" \
    "$(col small "$p" cpu_us)" "$l" "$(awk -v a="$l" -v b="$N_LARGE" 'BEGIN { print a / b }')" "$(col large "$p" p99ms)" \
    "$errs" "$([ "$p" = worker ] && echo "$lines" || echo -)"
done
echo
echo "Medians of $ROUNDS interleaved rounds of ${DURATION} s; wrk -t1 -c64 (100 B) and -c16 (1 MiB) on CPU 1 with the upstream nginx;"
echo "each proxy alone on CPU 0. Load average before/after: $LOAD_BEFORE / $LOAD_AFTER on $(nproc) CPUs (shared machine)."
echo "Errors: wrk socket errors and non-2xx over all runs; log lines: lines the Worker wrote during its measured runs."
