#!/usr/bin/env bash
# HTTP/2 to the upstream against HTTP/1.1 to the same upstream, through the Worker and through nginx, in one run: an
# upstream nginx on CPU 1 answers on an HTTP/1.1 port and on an h2c port (100 B and 1 MiB); the Worker (one route per
# protocol, `upstreamProtocol: HTTP/2` on the second) and nginx as the peer proxy (proxy_pass with keep-alive, and
# grpc_pass, its HTTP/2 upstream module) are each pinned to CPU 0; wrk -t1 on CPU 1 is the client (HTTP/1.1, 64
# connections for 100 B, 16 for 1 MiB). Each proxy is warmed, then rounds are interleaved. Per round: requests/s, p99,
# the proxy's CPU per request, and the upstream connections the proxy held at the end of the round.
#   bench/worker/h2-upstream.sh [seconds-per-round] [rounds]
# BENCH_ADDR: the loopback address every process binds (default 127.0.43.1). PATHS: the cases, of /h1/100b /h2/100b
# /h1/1m /h2/1m (default all). Bounded: the build, 1 minute of warm-up,
# then rounds x 8 x seconds-per-round. Needs wrk, nginx (with http_v2), ss, taskset, a JDK >= 21.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../bench-env.sh"
. "$ROOT/bench/worker/pinned-worker.sh"
DURATION=${1:-10}
ROUNDS=${2:-3}
PATHS=${PATHS:-/h1/100b /h2/100b /h1/1m /h2/1m}
ADDR=${BENCH_ADDR:-127.0.43.1}
bench_needs nginx wrk ss taskset curl
H1_PORT=18580
H2_PORT=18581
WORKER_PORT=18582
NGINX_PORT=18583
bench_work h2up
time_limit $((900 + ROUNDS * 8 * (DURATION + 2))) bench/worker/h2-upstream.sh; PIDS+=($!)

build_worker "$ROOT" worker
mkdir -p "$WORK/up/www" "$WORK/proxy"
head -c 1048576 /dev/urandom > "$WORK/up/www/1m"
SMALL=$(printf '%099d' 0)
for role in up proxy; do nginx_conf_head "$WORK/$role" > "$WORK/$role/nginx.conf"; done
cat >> "$WORK/up/nginx.conf" <<CONF
    server {
        listen $ADDR:$H1_PORT;
        listen $ADDR:$H2_PORT http2;
        root $WORK/up/www;
        location = /100b { default_type text/plain; return 200 "${SMALL}\n"; }
    }
}
CONF
cat >> "$WORK/proxy/nginx.conf" <<CONF
    upstream h1 { server $ADDR:$H1_PORT; keepalive 128; }
    upstream h2 { server $ADDR:$H2_PORT; keepalive 128; }
    server {
        listen $ADDR:$NGINX_PORT;
        location /h1/ { proxy_pass http://h1/; proxy_http_version 1.1; proxy_set_header Connection ""; }
        location /h2/ { rewrite ^/h2(/.*)\$ \$1 break; grpc_pass grpc://h2; }
    }
}
CONF
taskset -c 1 nginx -p "$WORK/up" -c "$WORK/up/nginx.conf" -e "$WORK/up/error.log" -g 'daemon off;' &
PIDS+=($!)
taskset -c 0 nginx -p "$WORK/proxy" -c "$WORK/proxy/nginx.conf" -e "$WORK/proxy/error.log" -g 'daemon off;' &
PIDS+=($!)
NGINX_PID=$!
cat > "$WORK/routes.yaml" <<YAML
routes:
  - {name: h1, pathPrefix: /h1, stripPrefix: true, upstreams: [http://$ADDR:$H1_PORT]}
  - {name: h2, pathPrefix: /h2, stripPrefix: true, upstreams: [http://$ADDR:$H2_PORT], upstreamProtocol: HTTP/2}
YAML
WORKER_PID=$(start_worker worker worker "$WORKER_PORT" "$WORK/routes.yaml")
PIDS+=("$WORKER_PID")
for _ in $(seq 1 900); do curl -sf -o /dev/null "http://$ADDR:$WORKER_PORT/h2/100b" && break; sleep 0.2; done
for proxy in "$NGINX_PORT" "$WORKER_PORT"; do
  for path in /h1/100b /h2/100b /h1/1m /h2/1m; do
    [ "$(curl -s -o /dev/null -w '%{http_code}' "http://$ADDR:$proxy$path")" = 200 ] \
      || { echo "http://$ADDR:$proxy$path does not answer 200" >&2; exit 1; }
  done
done
# nginx worker processes are children of the master: count their CPU too
nginx_pids() { echo "$NGINX_PID $(pgrep -P "$NGINX_PID" | tr '\n' ' ')"; }
HZ=$(getconf CLK_TCK)
held_by() { # port pids...: established connections to the upstream port that these processes hold
  local port=$1 pid n=0
  shift
  for pid in "$@"; do
    n=$((n + $(ss -Htnp state established "( dport = :$port )" | grep -c "pid=$pid," || true)))
  done
  echo "$n"
}
run() { # name port path connections seconds pids...
  local name=$1 port=$2 path=$3 conns=$4 seconds=$5 t0 t n upstream held
  shift 5
  upstream=$H1_PORT; case "$path" in /h2/*) upstream=$H2_PORT ;; esac
  # shellcheck disable=SC2068
  t0=$(ticks $@)
  taskset -c 1 wrk -t1 -c"$conns" -d"$seconds"s --latency "http://$ADDR:$port$path" > "$WORK/run.txt" 2>&1 || true
  # shellcheck disable=SC2068
  held=$(held_by "$upstream" $@)
  # shellcheck disable=SC2068
  t=$(( $(ticks $@) - t0 ))
  n=$(awk '/requests in/ {print $1}' "$WORK/run.txt")
  echo "$name $path req/s $(awk '/^Requests\/sec/ {print $2}' "$WORK/run.txt")" \
    "MB/s $(awk '/^Transfer\/sec/ {v = $2; if (v ~ /GB/) v *= 1024; else if (v ~ /KB/) v /= 1024; sub(/[A-Za-z]+$/, "", v); print v + 0}' "$WORK/run.txt")" \
    "p99 $(awk '$1 == "99%" {print $2}' "$WORK/run.txt")" \
    "errors $(awk '/Non-2xx|Socket errors/ {e = e $0} END {print (e == "" ? 0 : "\"" e "\"")}' "$WORK/run.txt")" \
    "cpu_us $(awk -v t="$t" -v n="${n:-0}" -v hz="$HZ" 'BEGIN { printf "%.1f", (n > 0 ? t / hz * 1e6 / n : 0) }')" \
    "upstream_connections $held"
}
round() { # seconds
  local path conns
  for path in $PATHS; do
    conns=64; case "$path" in */1m) conns=16 ;; esac
    # shellcheck disable=SC2046
    run Worker "$WORKER_PORT" "$path" "$conns" "$1" "$WORKER_PID"
    # shellcheck disable=SC2046
    run nginx "$NGINX_PORT" "$path" "$conns" "$1" $(nginx_pids)
  done
}
round 5 > /dev/null
round 5 > /dev/null
echo "machine: $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg); proxies on CPU 0, upstream nginx and wrk on CPU 1"
for _ in $(seq 1 "$ROUNDS"); do round "$DURATION"; done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
