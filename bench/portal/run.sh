#!/usr/bin/env bash
# Developer portal benchmark on loopback (127.0.49.1 by default, BENCH_ADDR): a Manager and two Workers (manager
# mode; the second with usage counting off), each its own JVM, and nginx as the upstream. Measures (1) proxied
# requests/s through a proxy with keyAuth and usage counting, the same proxy without keyAuth (called without and with the
# key header, which the client's request carries either way: its parsing is not the key check's), and with keyAuth but
# usage counting off, side by side in interleaved rounds (wrk -c32), each with its Worker's CPU time per request (user +
# system from /proc over the requests wrk counted: the key check's own cost, less swayed by other load than requests/s),
# with the usage the Manager then holds against the requests wrk counted, and (2) how long a revoked key keeps working: from the revoke call's answer to the Worker's
# first 401, over 20 revocations (p50, p99, max).
#   bench/portal/run.sh [seconds-per-run] [rounds]
# Bounded: about 4 x rounds x seconds plus warm-up and 20 revocations (~2.5 minutes at the defaults). Needs wrk, nginx,
# curl, jq and a JDK >= 21 (JAVA_HOME).
set -euo pipefail
cd "$(dirname "$0")/../.."
DURATION=${1:-10}
ROUNDS=${2:-3}
ADDR=${BENCH_ADDR:-127.0.49.1}
case "$ADDR" in 127.*) ;; *) echo "BENCH_ADDR must be a loopback address" >&2; exit 1 ;; esac
for tool in wrk nginx curl jq; do command -v "$tool" >/dev/null || { echo "$tool is missing" >&2; exit 1; }; done
export JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
JAVA="$JAVA_HOME/bin/java"
./mvnw -B -q -o -pl distribution -am package -DskipTests dependency:build-classpath -Dmdep.outputFile=target/bench-cp.cp \
  -Dmdep.includeScope=runtime
CP=""
for m in core cache-client gateway-model manager worker cache integration portal distribution; do CP="$CP:$m/target/classes"; done
CP="${CP#:}:$(tr ':' '\n' < distribution/target/bench-cp.cp | grep -v '/io/pylon/' | paste -sd:)"
STATE=$(mktemp -d /tmp/pylon-bench-portal.XXXXXX)
chmod 755 "$STATE"
PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  [ -f "$STATE/nginx.pid" ] && kill "$(cat "$STATE/nginx.pid")" 2>/dev/null || true
  rm -rf "$STATE"
}
trap cleanup EXIT
PASSWORD="bench-Passw0rd-1234"
ID="0123456789abcdef0123beef"
M="http://$ADDR:18490"
W="http://$ADDR:18491"
W2="http://$ADDR:18493"
UP=18492

cat > "$STATE/nginx.conf" <<CONF
worker_processes 1;
pid $STATE/nginx.pid;
error_log $STATE/nginx-error.log warn;
events { worker_connections 4096; }
http { access_log off; server { listen $ADDR:$UP; location / { return 200 '$(printf '%099d' 0)'; } } }
CONF
nginx -c "$STATE/nginx.conf" -p "$STATE"

PYLON_DATA_DIR="$STATE/m" PYLON_ENVIRONMENT_ID="$ID" PYLON_ENVIRONMENT_NAME=bench PYLON_MANAGER_ADMIN_PASSWORD="$PASSWORD" \
PYLON_MANAGER_PORTAL_AUTO_APPROVE_DEVELOPERS=true \
PYLON_MANAGER_BOOTSTRAP_ENVIRONMENT_URLS="worker=$W,cache=http://$ADDR:1" \
  "$JAVA" -Xmx256m -cp "$CP" io.pylon.distribution.PylonCli run manager --pod-name bench-manager --bind "$ADDR" \
  --port 18490 > "$STATE/manager.log" 2>&1 &
PIDS+=($!)
for _ in $(seq 1 120); do curl -fs "$M/apiops/test/healthcheck" >/dev/null && break; sleep 0.5; done
PYLON_DATA_DIR="$STATE/w" PYLON_ENVIRONMENT_ID="$ID" PYLON_ENVIRONMENT_NAME=bench PYLON_WORKER_CONFIG_SOURCE=manager \
PYLON_WORKER_MANAGER_URL="$M" \
  "$JAVA" -Xmx256m -cp "$CP" io.pylon.distribution.PylonCli run worker --pod-name bench-worker --bind "$ADDR" \
  --port 18491 > "$STATE/worker.log" 2>&1 &
PIDS+=($!)
PYLON_DATA_DIR="$STATE/w2" PYLON_ENVIRONMENT_ID="$ID" PYLON_ENVIRONMENT_NAME=bench PYLON_WORKER_CONFIG_SOURCE=manager \
PYLON_WORKER_MANAGER_URL="$M" PYLON_WORKER_USAGE_ENABLED=false \
  "$JAVA" -Xmx256m -cp "$CP" io.pylon.distribution.PylonCli run worker --pod-name bench-worker-nousage --bind "$ADDR" \
  --port 18493 > "$STATE/worker2.log" 2>&1 &
PIDS+=($!)

token() {
  curl -fs -d "grant_type=client_credentials&client_id=$1&client_secret=$2" "$M/apiops/auth/token" | jq -r .access_token
}
ADMIN=$(token admin "$PASSWORD")
api() { # method path token [json]
  curl -fs -X "$1" -H "Authorization: Bearer $3" ${4:+-H 'Content-Type: application/json' --data "$4"} "$M$2"
}
api POST /apiops/users "$ADMIN" '{"username":"portal","password":"portal-Passw0rd-1","role":"portal"}' >/dev/null
PORTAL=$(token portal portal-Passw0rd-1)
api POST /apiops/proxies "$ADMIN" "{\"name\":\"open\",\"pathPrefix\":\"/open\",\"upstreams\":[\"http://$ADDR:$UP\"]}" >/dev/null
api POST /apiops/proxies "$ADMIN" "{\"name\":\"keyed\",\"pathPrefix\":\"/keyed\",\"upstreams\":[\"http://$ADDR:$UP\"],\"keyAuth\":{}}" >/dev/null
api POST /apiops/environments/bench/deployments "$ADMIN" '{"proxies":["open","keyed"],"wait":"60s"}' >/dev/null
api PUT /apiops/publications/keyed "$ADMIN" '{"autoApprove":true}' >/dev/null
CRED='{"email":"bench@example.com","password":"bench-Passw0rd-12"}'
api POST /apiops/portal/developers "$PORTAL" "$CRED" >/dev/null
SIGNIN=$(api POST /apiops/portal/sessions "$PORTAL" "$CRED")
DS=(-H "X-Pylon-Developer-Session: $(jq -r .session <<<"$SIGNIN")" -H "X-Pylon-Csrf: $(jq -r .csrf <<<"$SIGNIN")")
dev() { curl -fs -X "$1" -H "Authorization: Bearer $PORTAL" "${DS[@]}" ${3:+-H 'Content-Type: application/json' --data "$3"} "$M$2"; }
APP=$(dev POST /apiops/portal/applications '{"name":"bench"}' | jq -r .id)
dev POST "/apiops/portal/applications/$APP/subscriptions" '{"proxy":"keyed"}' >/dev/null
# more keys in the key set, so the lookup is not in a one-entry map (an application holds at most 10 live keys)
for i in $(seq 1 8); do dev POST "/apiops/portal/applications/$APP/keys" >/dev/null; done
KEY=$(dev POST "/apiops/portal/applications/$APP/keys" | jq -r .key)
for _ in $(seq 1 200); do
  [ "$(curl -s -o /dev/null -w '%{http_code}' -H "X-API-Key: $KEY" "$W/keyed/x")" = 200 ] && break; sleep 0.05
done
for _ in $(seq 1 200); do
  [ "$(curl -s -o /dev/null -w '%{http_code}' -H "X-API-Key: $KEY" "$W2/keyed/x")" = 200 ] && break; sleep 0.05
done
[ "$(curl -s -o /dev/null -w '%{http_code}' "$W/open/x")" = 200 ] || { echo "the open proxy does not answer" >&2; exit 1; }

HZ=$(getconf CLK_TCK)
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; } # the process's user + system CPU time
W_PID=${PIDS[1]}; W2_PID=${PIDS[2]}
rps() { # count pid wrk-args: prints "req/s CPU-us-per-request" (that Worker's CPU time over the requests wrk counted);
  # adds the responses wrk counted to $STATE/counted when the first argument is "count"
  local count=$1 pid=$2; shift 2
  local t0 t1 out
  t0=$(ticks "$pid")
  out=$(wrk -t2 -c32 -d"${DURATION}s" "$@")
  t1=$(ticks "$pid")
  if [ "$count" = count ]; then awk '/requests in/ {print $1}' <<<"$out" >> "$STATE/counted"; fi
  awk -v t=$((t1 - t0)) -v hz="$HZ" '/requests in/ {n = $1} /Requests\/sec/ {r = $2} END {printf "%s %.1f\n", r, t / hz * 1e6 / n}' <<<"$out"
}
usage_total() { # requests the Manager holds for the bench application on the keyed proxy
  curl -fs -H "Authorization: Bearer $ADMIN" "$M/apiops/usage?proxy=keyed&from=$FROM" \
    | jq --arg app "$APP" '[.applications[] | select(.application == $app) | .requests] | add // 0'
}
FROM=$(date -u -d '-2 minutes' +%Y-%m-%dT%H:%M:00Z)
echo "warm-up..." >&2
rps - "$W_PID" "$W/open/x" >/dev/null; rps - "$W_PID" -H "X-API-Key: $KEY" "$W/keyed/x" >/dev/null
rps - "$W2_PID" -H "X-API-Key: $KEY" "$W2/keyed/x" >/dev/null
sleep 12 # the warm-up's usage reported
ADMIN=$(token admin "$PASSWORD")
BEFORE=$(usage_total)
: > "$STATE/counted"
OPEN=(); OPENH=(); KEYED=(); NOUSAGE=(); OPEN_CPU=(); OPENH_CPU=(); KEYED_CPU=(); NOUSAGE_CPU=()
for r in $(seq 1 "$ROUNDS"); do
  read -r v c <<<"$(rps - "$W_PID" "$W/open/x")"; OPEN+=("$v"); OPEN_CPU+=("$c")
  read -r v c <<<"$(rps - "$W_PID" -H "X-API-Key: $KEY" "$W/open/x")"; OPENH+=("$v"); OPENH_CPU+=("$c")
  read -r v c <<<"$(rps count "$W_PID" -H "X-API-Key: $KEY" "$W/keyed/x")"; KEYED+=("$v"); KEYED_CPU+=("$c")
  read -r v c <<<"$(rps - "$W2_PID" -H "X-API-Key: $KEY" "$W2/keyed/x")"; NOUSAGE+=("$v"); NOUSAGE_CPU+=("$c")
done
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
MO=$(median "${OPEN[@]}"); MH=$(median "${OPENH[@]}"); MK=$(median "${KEYED[@]}"); MN=$(median "${NOUSAGE[@]}")
CO=$(median "${OPEN_CPU[@]}"); CH=$(median "${OPENH_CPU[@]}"); CK=$(median "${KEYED_CPU[@]}"); CN=$(median "${NOUSAGE_CPU[@]}")
LOAD=$(cut -d' ' -f1-3 /proc/loadavg)
sleep 12 # one report interval (10 s) and then some: every count reached the Manager
ADMIN=$(token admin "$PASSWORD")
STORED=$(( $(usage_total) - BEFORE ))
WRK_COUNTED=$(awk '{s += $1} END {print s + 0}' "$STATE/counted")

LAT=()
for i in $(seq 1 20); do
  ISSUED=$(dev POST "/apiops/portal/applications/$APP/keys")
  K=$(jq -r .key <<<"$ISSUED"); KID=$(jq -r .id <<<"$ISSUED")
  for _ in $(seq 1 200); do
    [ "$(curl -s -o /dev/null -w '%{http_code}' -H "X-API-Key: $K" "$W/keyed/x")" = 200 ] && break; sleep 0.02
  done
  dev DELETE "/apiops/portal/applications/$APP/keys/$KID" >/dev/null
  T0=$(date +%s%N)
  while [ "$(curl -s -o /dev/null -w '%{http_code}' -H "X-API-Key: $K" "$W/keyed/x")" != 401 ]; do
    [ $(( ($(date +%s%N) - T0) / 1000000 )) -gt 10000 ] && break
  done
  LAT+=($(( ($(date +%s%N) - T0) / 1000000 )))
done
SORTED=$(printf '%s\n' "${LAT[@]}" | sort -n)
P50=$(sed -n 10p <<<"$SORTED"); P99=$(tail -1 <<<"$SORTED")

echo "| Case | Result |"
echo "| --- | --- |"
echo "| proxied req/s, no keyAuth (median of $ROUNDS x ${DURATION}s, wrk -c32) | $MO (rounds: ${OPEN[*]}) |"
echo "| proxied req/s, no keyAuth, the key header sent all the same (same) | $MH (rounds: ${OPENH[*]}) |"
echo "| proxied req/s, keyAuth + usage counting (same) | $MK (rounds: ${KEYED[*]}) |"
echo "| proxied req/s, keyAuth, usage counting off (second Worker) | $MN (rounds: ${NOUSAGE[*]}) |"
echo "| ratio keyAuth + usage / none | $(awk -v a="$MK" -v b="$MO" 'BEGIN {printf "%.3f", a/b}') |"
echo "| ratio keyAuth + usage / none with the key header (the key check and counting alone) | $(awk -v a="$MK" -v b="$MH" 'BEGIN {printf "%.3f", a/b}') |"
echo "| ratio keyAuth + usage / keyAuth alone | $(awk -v a="$MK" -v b="$MN" 'BEGIN {printf "%.3f", a/b}') |"
echo "| Worker CPU us per request: none / none with the key header / keyAuth + usage / keyAuth alone (medians) | $CO / $CH / $CK / $CN |"
echo "| CPU ratio none / keyAuth + usage (the key check's cost in requests/s on a busy core) | $(awk -v a="$CO" -v b="$CK" 'BEGIN {printf "%.3f", a/b}') |"
echo "| usage stored by the Manager vs responses wrk counted (keyAuth + usage rounds) | $STORED vs $WRK_COUNTED |"
echo "| revoke answered -> Worker 401, 20 revocations | p50 ${P50} ms, p99 (= max of 20) ${P99} ms |"
echo
echo "Load average after the rounds: $LOAD on $(nproc) CPUs."
