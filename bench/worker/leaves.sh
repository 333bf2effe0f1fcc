#!/usr/bin/env bash
# Clients that close their connection while the upstream is silent: how long the Worker and nginx (proxy_pass,
# buffering off, as an operator fronts an API) keep the upstream connection busy after the client left. Both in front
# of the same silent upstream (bench/worker/leaves.py), trials interleaved; clients that close at once (the Worker's
# read ahead starts at the next sweep of its listener's guard) and 1 s after the request reached the upstream (the
# read ahead is already parked). nginx notices from its event loop (EPOLLRDHUP). Prints a Markdown table for each.
#   bench/worker/leaves.sh [trials]
# BENCH_ADDR: the loopback address every process binds (default 127.0.43.1). Bounded: the build, then about
# trials x 2 x 1.6 s. Needs nginx, python3, taskset and a JDK >= 21.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../bench-env.sh"
. "$ROOT/bench/worker/pinned-worker.sh"
TRIALS=${1:-30}
ADDR=${BENCH_ADDR:-127.0.43.1}
bench_needs nginx python3 taskset curl
UPSTREAM_PORT=18480
WORKER_PORT=18481
NGINX_PORT=18482
bench_work leaves
time_limit 900 bench/worker/leaves.sh; PIDS+=($!)

build_worker "$ROOT" worker
printf 'routes:\n  - {name: api, pathPrefix: /, upstreams: [http://%s:%s]}\n' "$ADDR" "$UPSTREAM_PORT" > "$WORK/routes.yaml"
PIDS+=("$(start_worker worker worker "$WORKER_PORT" "$WORK/routes.yaml")")
start_upstream "$WORK/nginx" "$ADDR" "$NGINX_PORT" "location / { proxy_pass http://$ADDR:$UPSTREAM_PORT;
        proxy_http_version 1.1; proxy_set_header Connection \"\"; proxy_buffering off; proxy_read_timeout 60s; }"
PIDS+=($!)
for _ in $(seq 1 900); do
  curl -sf -o /dev/null "http://$ADDR:$WORKER_PORT/platform/management/health" && break
  sleep 0.2
done
echo "machine: $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg); Worker: pod JVM options, CPU 0; nginx: CPU 1"
python3 "$ROOT/bench/worker/leaves.py" "$ADDR" "$UPSTREAM_PORT" "$TRIALS" 0,1000 "Worker=$WORKER_PORT" "nginx=$NGINX_PORT"
