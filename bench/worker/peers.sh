#!/usr/bin/env bash
# The Worker against nginx, HAProxy, Caddy and Spring Cloud Gateway as reverse proxies of the same upstream, side by
# side: each proxy pinned to CPU 0 (taskset), the upstream (nginx) and wrk pinned to CPU 1, rounds interleaved (every
# proxy once per round and case), medians of the rounds. The floor of the Worker's stack beside them, same core, same
# JVM options: a bare Helidon SE server proxying with HttpClient 5 classic and no Pylon code (helidon-hc5), and the same
# server answering on its own (helidon: no proxy at all, what Helidon alone costs per request; BareHelidon.java); and
# the floor of an event-loop data plane in Java: a bare Netty proxy with one epoll loop for both sides (netty;
# bench/worker/netty, built with ./mvnw).
# helidon-client (not in the default PEERS): the same proxy through HttpClient's CloseableHttpClient.executeOpen. Two cases: 100-byte responses (wrk -c64) and 1 MiB responses
# (wrk -c16). Per proxy and case: requests/s, p99, CPU per request (utime + stime of its processes over the run, from
# /proc/<pid>/stat; for 100 B also the kernel's part, stime), errors, and the lines its logs gained during the measured
# runs.
#   bench/worker/peers.sh [seconds-per-run] [rounds]
# NGINX_BUFFERING=on: the nginx proxy buffers answers (its default) instead of streaming them as the Worker does.
# BENCH_ADDR: the loopback address every process binds (default 127.0.40.1). PEERS: the proxies to measure (default
# "nginx haproxy caddy scg worker helidon-hc5 helidon netty"; nginx is the reference and always measured). Bounded: it stops after its rounds
# (about 2 x rounds x proxies x seconds, plus the warm-up of each JVM until its JIT compilers are idle, 30-180 s)
# and only ever calls BENCH_ADDR. The JVMs (the Worker and Spring Cloud Gateway) get the JVM options of a Worker pod
# (WORKER_JAVA_OPTS replaces them for both). Needs wrk, nginx, haproxy, caddy, taskset, a JDK >= 21 (bench/bench-env.sh) and,
# the first time, Maven Central (bench/worker/spring-cloud-gateway is built with ./mvnw). Prints a Markdown table.
set -euo pipefail
trap 'echo "bench/worker/peers.sh: failed at line $LINENO: $BASH_COMMAND" >&2' ERR
# shellcheck source=bench/bench-env.sh
. "$(dirname "${BASH_SOURCE[0]}")/../bench-env.sh"
# shellcheck source=bench/worker/pinned-worker.sh
. "$ROOT/bench/worker/pinned-worker.sh"
DURATION=${1:-15}
ROUNDS=${2:-3}
ADDR=${BENCH_ADDR:-127.0.40.1}
PROXIES="nginx"
for p in ${PEERS:-haproxy caddy scg worker helidon-hc5 helidon netty}; do
  case "$p" in
    nginx) ;;
    haproxy | caddy | scg | worker | helidon-hc5 | helidon | helidon-client | netty) PROXIES="$PROXIES $p" ;;
    *) echo "PEERS names nginx, haproxy, caddy, scg, worker, helidon-hc5, helidon, helidon-client and netty, not '$p'" >&2; exit 1 ;;
  esac
done
wants() { case " $PROXIES " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }
bench_needs wrk nginx taskset $(wants haproxy && echo haproxy) $(wants caddy && echo caddy)
JVM_OPTS=${WORKER_JAVA_OPTS:-$PYLON_POD_JVM_OPTS $(pylon_pod_heap_opts worker)}
UPSTREAM_PORT=18180
NGINX_PORT=18181
HAPROXY_PORT=18182
CADDY_PORT=18183
SCG_PORT=18184
WORKER_PORT=18191
BARE_PROXY_PORT=18192
BARE_PORT=18193
BARE_CLIENT_PORT=18194
NETTY_PORT=18195
bench_work peers
time_limit 2400 bench/worker/peers.sh; PIDS+=($!)

# the JVM peers first (their builds take minutes on a loaded machine): the Worker built from this tree, Spring Cloud
# Gateway from its own pom.xml beside this script
if wants worker || wants helidon-hc5 || wants helidon || wants helidon-client; then
  build_worker "$ROOT" worker "$ROOT/bench/worker/BareHelidon.java"
fi
SCG_JAR=$ROOT/bench/worker/spring-cloud-gateway/target/spring-cloud-gateway-bench.jar
if wants scg; then
  if ! nice -n 10 "$ROOT/mvnw" -B -q -f "$ROOT/bench/worker/spring-cloud-gateway/pom.xml" package \
      -DskipTests > "$WORK/scg-build.log" 2>&1; then
    echo "cannot build Spring Cloud Gateway (./mvnw -f bench/worker/spring-cloud-gateway/pom.xml package); Maven said:" >&2
    grep -v '^WARNING' "$WORK/scg-build.log" >&2 || true
    exit 1
  fi
  [ -s "$SCG_JAR" ] || { echo "the Spring Cloud Gateway build wrote no $SCG_JAR" >&2; exit 1; }
fi
NETTY_DIR=$ROOT/bench/worker/netty
if wants netty; then
  if ! nice -n 10 "$ROOT/mvnw" -B -q -f "$NETTY_DIR/pom.xml" package -DskipTests > "$WORK/netty-build.log" 2>&1; then
    echo "cannot build the bare Netty proxy (./mvnw -f bench/worker/netty/pom.xml package); Maven said:" >&2
    grep -v '^WARNING' "$WORK/netty-build.log" >&2 || true
    exit 1
  fi
fi

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
            proxy_buffering ${NGINX_BUFFERING:-off};
        }
    }
}
CONF
taskset -c 0 nginx -p "$WORK/nginx" -c "$WORK/nginx/nginx.conf" -e "$WORK/nginx/error.log" -g 'daemon off;' \
  > "$WORK/nginx.log" 2>&1 &
NGINX_PID=$!
PIDS+=($NGINX_PID)

# HAProxy, one thread on CPU 0, connections to the upstream reused
HAPROXY_PID=
if wants haproxy; then
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
fi

# Caddy (Debian's package) on CPU 0: listening on ADDR only (`bind`: a site address alone listens on every interface),
# no admin endpoint, no automatic HTTPS, no access log (Caddy writes one only when a site has a `log` directive),
# streaming (flush_interval -1, as nginx's proxy_buffering off) and up to 128 idle upstream connections kept (nginx's
# keepalive 128; Caddy's default of 32 would open new ones under -c64)
CADDY_PID=
if wants caddy; then
  cat > "$WORK/Caddyfile" <<CONF
{
    admin off
    auto_https off
}
http://$ADDR:$CADDY_PORT {
    bind $ADDR
    reverse_proxy $ADDR:$UPSTREAM_PORT {
        flush_interval -1
        transport http {
            keepalive_idle_conns_per_host 128
        }
    }
}
CONF
  HOME="$WORK" XDG_CONFIG_HOME="$WORK/caddy-config" XDG_DATA_HOME="$WORK/caddy-data" GOMAXPROCS=1 \
    taskset -c 0 caddy run --config "$WORK/Caddyfile" --adapter caddyfile > "$WORK/caddy.log" 2>&1 &
  CADDY_PID=$!
  PIDS+=($CADDY_PID)
fi

# Spring Cloud Gateway (reactive server, one route in its application.yml) on CPU 0, with a Worker pod's JVM options
SCG_PID=
if wants scg; then
  # shellcheck disable=SC2086
  taskset -c 0 "$JAVA_HOME/bin/java" $JVM_OPTS --enable-native-access=ALL-UNNAMED -jar "$SCG_JAR" \
    --server.address="$ADDR" --server.port=$SCG_PORT --bench.upstream="http://$ADDR:$UPSTREAM_PORT" \
    > "$WORK/scg.log" 2>&1 &
  SCG_PID=$!
  PIDS+=($SCG_PID)
fi

# the Worker, with one catch-all route and the JVM options a pod gets, on CPU 0
WORKER_PID=
if wants worker; then
  cat > "$WORK/routes.yaml" <<ROUTES
routes:
  - {name: api, pathPrefix: /, upstreams: [http://$ADDR:$UPSTREAM_PORT]}
ROUTES
  WORKER_PID=$(start_worker worker worker $WORKER_PORT "$WORK/routes.yaml")
  PIDS+=($WORKER_PID)
fi

# the floor: a bare Helidon SE server on CPU 0 with the same JVM options, proxying with HttpClient 5, and answering alone
BARE_PROXY_PID=
BARE_PID=
BARE_CLIENT_PID=
bare_helidon() { # name port [upstream [client]]
  # shellcheck disable=SC2086
  taskset -c 0 "$JAVA_HOME/bin/java" $JVM_OPTS -cp "$WORK/worker.classes:$(cat "$WORK/worker.cp")" BareHelidon "$ADDR" "$2" \
    ${3:-} ${4:-} > "$WORK/$1.log" 2>&1 &
}
if wants helidon-hc5; then
  bare_helidon helidon-hc5 $BARE_PROXY_PORT "http://$ADDR:$UPSTREAM_PORT"
  BARE_PROXY_PID=$!
  PIDS+=($BARE_PROXY_PID)
fi
if wants helidon-client; then
  bare_helidon helidon-client $BARE_CLIENT_PORT "http://$ADDR:$UPSTREAM_PORT" client
  BARE_CLIENT_PID=$!
  PIDS+=($BARE_CLIENT_PID)
fi
if wants helidon; then
  bare_helidon helidon $BARE_PORT
  BARE_PID=$!
  PIDS+=($BARE_PID)
fi

# the floor of an event-loop data plane: a bare Netty proxy on CPU 0 with the same JVM options
NETTY_PID=
if wants netty; then
  # shellcheck disable=SC2086
  taskset -c 0 "$JAVA_HOME/bin/java" $JVM_OPTS --enable-native-access=ALL-UNNAMED \
    -cp "$NETTY_DIR/target/classes:$(cat "$NETTY_DIR/target/classpath.txt")" BareNetty "$ADDR" $NETTY_PORT \
    "http://$ADDR:$UPSTREAM_PORT" > "$WORK/netty.log" 2>&1 &
  NETTY_PID=$!
  PIDS+=($NETTY_PID)
fi

proxy_pids() { # name
  case "$1" in
    nginx) echo "$NGINX_PID $(pgrep -P "$NGINX_PID" | tr '\n' ' ')" ;;
    haproxy) echo "$HAPROXY_PID" ;;
    caddy) echo "$CADDY_PID" ;;
    scg) echo "$SCG_PID" ;;
    worker) echo "$WORKER_PID" ;;
    helidon-hc5) echo "$BARE_PROXY_PID" ;;
    helidon) echo "$BARE_PID" ;;
    helidon-client) echo "$BARE_CLIENT_PID" ;;
    netty) echo "$NETTY_PID" ;;
  esac
}
proxy_port() {
  case "$1" in
    nginx) echo $NGINX_PORT ;; haproxy) echo $HAPROXY_PORT ;; caddy) echo $CADDY_PORT ;; scg) echo $SCG_PORT ;;
    worker) echo $WORKER_PORT ;; helidon-hc5) echo $BARE_PROXY_PORT ;; helidon) echo $BARE_PORT ;;
    helidon-client) echo $BARE_CLIENT_PORT ;; netty) echo $NETTY_PORT ;;
  esac
}
proxy_logs() { # the files a proxy writes its log to
  case "$1" in nginx) echo "$WORK/nginx.log $WORK/nginx/error.log" ;; *) echo "$WORK/$1.log" ;; esac
}
log_lines() { # name: lines in its logs so far
  local total=0 f
  for f in $(proxy_logs "$1"); do [ -f "$f" ] && total=$((total + $(wc -l < "$f"))); done
  echo "$total"
}
await() { # name port path: 3 minutes at most (a JVM starts slowly on a loaded core)
  for _ in $(seq 1 900); do
    curl -sf -o /dev/null "http://$ADDR:$2$3" && return 0
    sleep 0.2
  done
  echo "$1 does not answer on $ADDR:$2$3; its log:" >&2; tail -20 $(proxy_logs "$1") >&2; exit 1
}
await upstream $UPSTREAM_PORT /100b
for p in $PROXIES; do await "$p" "$(proxy_port "$p")" /100b; done

HZ=$(getconf CLK_TCK)
kernel_ticks() { # PID...: CPU clock ticks they have spent in the kernel (stime) so far
  local total=0 pid
  for pid in "$@"; do total=$((total + $(awk '{print $15}' "/proc/$pid/stat" 2>/dev/null || echo 0))); done
  echo "$total"
}
# one wrk run: writes name.txt (wrk's output) and name.stats ("requests cpu_ticks log_lines kernel_ticks")
run() { # name proxy path connections seconds
  local t0 k0 l0
  t0=$(ticks $(proxy_pids "$2")); k0=$(kernel_ticks $(proxy_pids "$2")); l0=$(log_lines "$2")
  taskset -c 1 wrk -t1 -c"$4" -d"$5"s --latency "http://$ADDR:$(proxy_port "$2")$3" > "$WORK/$1.txt" 2>&1 || true
  echo "$(awk '/requests in/ {print $1}' "$WORK/$1.txt") $(( $(ticks $(proxy_pids "$2")) - t0 )) $(( $(log_lines "$2") - l0 ))" \
    "$(( $(kernel_ticks $(proxy_pids "$2")) - k0 ))" > "$WORK/$1.stats"
}
rps() { awk '/^Requests\/sec/ {print $2}' "$WORK/$1.txt"; }
p99ms() {
  awk '$1 == "99%" { v = $2; if (v ~ /us$/) { sub(/us$/, "", v); v /= 1000 } else if (v ~ /ms$/) { sub(/ms$/, "", v) } else if (v ~ /s$/) { sub(/s$/, "", v); v *= 1000 }; printf "%.2f", v }' "$WORK/$1.txt"
}
errors() {
  awk '/Socket errors/ { gsub(",", ""); n += $4 + $6 + $8 + $10 } /Non-2xx/ { n += $NF } END { print n + 0 }' "$WORK/$1.txt"
}
cpu_us() { awk -v hz="$HZ" '{ if ($1 > 0) printf "%.1f", $2 / hz * 1e6 / $1; else print "-" }' "$WORK/$1.stats"; }
kernel_us() { awk -v hz="$HZ" '{ if ($1 > 0) printf "%.1f", $4 / hz * 1e6 / $1; else print "-" }' "$WORK/$1.stats"; }
loglines() { awk '{print $3}' "$WORK/$1.stats"; }

# A JVM until its JIT compilers are idle: 10 s steps, at least 3, until its compiler threads took under 2% of its CPU
# in a step, or after 18 (a stop at stable CPU per request is not enough: on a busy machine C2 gets so little CPU that
# a JVM still compiling can cost 10x its compiled CPU per request for minutes, step after step)
warm_jvm() { # name
  local pid step t0 j0 t j
  pid=$(proxy_pids "$1")
  echo "warming up $1 (until its JIT compilers are idle: 30-180 s)..." >&2
  for step in $(seq 1 18); do
    t0=$(ticks "$pid"); j0=$(jit_ticks "$pid")
    run "warm-$1" "$1" /100b 64 10
    t=$(( $(ticks "$pid") - t0 )); j=$(( $(jit_ticks "$pid") - j0 ))
    echo "  warm-up step $step: $1 $(cpu_us "warm-$1") us of CPU per request, $j of its $t CPU ticks compiling" >&2
    if [ "$step" -ge 3 ] && [ $((j * 50)) -le "$t" ]; then break; fi
  done
  run "warm-$1" "$1" /1m 16 10
}
for p in scg worker helidon-hc5 helidon-client helidon netty; do wants "$p" && warm_jvm "$p"; done
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
x() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
name() {
  case "$1" in
    nginx) echo "nginx $(nginx -v 2>&1 | sed 's#.*nginx/##')" ;;
    haproxy) echo "HAProxy $(haproxy -v | awk 'NR == 1 {print $3}' | sed 's/-.*//')" ;;
    caddy) echo "Caddy $(caddy version | awk '{print $1}')" ;;
    scg) echo "Spring Cloud Gateway $(unzip -l "$SCG_JAR" | grep -o 'spring-cloud-gateway-server-webflux-[0-9.]*[0-9]' | head -1 | sed 's/.*-//')" ;;
    worker) echo "Worker" ;;
    helidon-hc5) echo "floor: bare Helidon SE + HttpClient 5 exchange" ;;
    helidon-client) echo "bare Helidon SE + HttpClient 5 client" ;;
    helidon) echo "floor: bare Helidon SE answering (no proxy)" ;;
    netty) echo "floor: bare Netty $(grep -o 'netty-common-[0-9.]*[0-9]' "$NETTY_DIR/target/classpath.txt" | head -1 | sed 's/netty-common-//') proxy, one event loop" ;;
  esac
}
echo
echo "| proxy | 100 B req/s (x nginx) | p99 ms (x nginx) | CPU us/req (x nginx) | of it kernel |" \
  "1 MiB MiB/s (x nginx) | 1 MiB p99 ms | 1 MiB CPU us/req | errors | log lines |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
N_RPS=$(col small nginx rps); N_P99=$(col small nginx p99ms); N_CPU=$(col small nginx cpu_us); N_LARGE=$(col large nginx rps)
for p in $PROXIES; do
  r=$(col small "$p" rps); q=$(col small "$p" p99ms); c=$(col small "$p" cpu_us); l=$(col large "$p" rps)
  errs=0; lines=0
  for round in $(seq 1 "$ROUNDS"); do
    errs=$((errs + $(errors "small-$p-$round") + $(errors "large-$p-$round")))
    lines=$((lines + $(loglines "small-$p-$round") + $(loglines "large-$p-$round")))
  done
  printf '| %s | %.0f (%s) | %s (%s) | %s (%s) | %s | %.0f (%s) | %s | %s | %s | %s |\n' "$(name "$p")" "$r" \
    "$(x "$r" "$N_RPS")" "$q" "$(x "$q" "$N_P99")" "$c" "$(x "$c" "$N_CPU")" "$(col small "$p" kernel_us)" \
    "$l" "$(x "$l" "$N_LARGE")" "$(col large "$p" p99ms)" \
    "$(col large "$p" cpu_us)" "$errs" "$lines"
done
echo
echo "Medians of $ROUNDS interleaved rounds of ${DURATION} s; wrk -t1 -c64 (100 B) and -c16 (1 MiB) on CPU 1 with the upstream nginx;"
echo "each proxy alone on CPU 0. Load average before/after: $LOAD_BEFORE / $LOAD_AFTER on $(nproc) CPUs (shared machine)."
echo "Errors: wrk socket errors and non-2xx over all runs; log lines: lines each proxy's logs gained during its measured runs."
for p in $PROXIES; do
  for round in $(seq 1 "$ROUNDS"); do
    for c in small large; do
      [ "$(errors "$c-$p-$round")" = 0 ] || echo "errors in $c-$p-$round: $(awk '/Socket errors|Non-2xx/' "$WORK/$c-$p-$round.txt" | tr '\n' ' ')"
    done
  done
done
