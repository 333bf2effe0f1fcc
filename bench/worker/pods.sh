# shellcheck shell=bash
# Sourced by the benchmarks that load a Worker (bench/worker/run.sh, bench/diagnostics/jfr.sh): nginx as the small
# upstream (and as a reverse proxy to compare with), and one Worker pod built from this tree with a catch-all route
# to that upstream. The caller sets ROOT, ADDR (a loopback address), UPSTREAM_PORT, PROXY_PORT, WORKER_PORT and
# BENCH_NAME; sourcing checks ADDR and the ports, makes WORK (a temporary folder) and cleans up on exit.
case "$ADDR" in
  127.*) ;;
  *) echo "BENCH_ADDR must be a loopback address (127.x.y.z), not '$ADDR'" >&2; exit 1 ;;
esac
JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
WORK=$(mktemp -d "/tmp/pylon-bench-$BENCH_NAME.XXXXXX")
NGINX_PID=
WORKER_PID=

bench_cleanup() {
  [ -n "$WORKER_PID" ] && kill "$WORKER_PID" 2>/dev/null && wait "$WORKER_PID" 2>/dev/null || true
  [ -n "$NGINX_PID" ] && kill "$NGINX_PID" 2>/dev/null && wait "$NGINX_PID" 2>/dev/null || true
  rm -rf "$WORK"
}

bench_check_ports_free() {
  local port
  for port in "$@"; do
    if (exec 3<>/dev/tcp/$ADDR/$port) 2>/dev/null; then
      echo "port $port on $ADDR is in use; stop what listens there first" >&2
      exit 1
    fi
  done
}

bench_start_nginx() {
  mkdir -p "$WORK/nginx"
  sed -e "s#@PREFIX@#$WORK/nginx#g" -e "s#@ADDR@#$ADDR#g" -e "s#@UPSTREAM_PORT@#$UPSTREAM_PORT#g" -e "s#@PROXY_PORT@#$PROXY_PORT#g" \
    "$ROOT/bench/worker/nginx.conf.template" > "$WORK/nginx/nginx.conf"
  nginx -p "$WORK/nginx" -c "$WORK/nginx/nginx.conf" -e "$WORK/nginx/error.log" &
  NGINX_PID=$!
}

# bench_worker_classpath [JAVA_FILE...]: builds the Worker of this tree and sets CP to its class path, writes
# $WORK/routes.yaml (one catch-all route to the upstream), and compiles StartWorker.java and the given files into
# $WORK/classes.
bench_worker_classpath() {
  # (-am and test-compile: the class path then names core/target/classes and the other modules of this tree, never a
  # stale copy in ~/.m2; core's test-jar, a test dependency, must be compiled for the reactor to resolve)
  if ! "$ROOT/mvnw" -B -q -o -f "$ROOT/pom.xml" -pl worker -am test-compile dependency:build-classpath \
      -Dmdep.includeScope=runtime -Dmdep.outputFile="$WORK/cp.txt" > "$WORK/build.log" 2>&1; then
    echo "cannot build the Worker's class path; Maven said:" >&2
    grep -v '^WARNING' "$WORK/build.log" >&2
    exit 1
  fi
  if [ ! -s "$WORK/cp.txt" ] || [ ! -d "$ROOT/worker/target/classes" ]; then
    echo "cannot build the Worker's class path: Maven wrote no class path or worker/target/classes is missing" >&2
    exit 1
  fi
  CP="$ROOT/worker/target/classes:$(cat "$WORK/cp.txt")"
  cat > "$WORK/routes.yaml" <<ROUTES
routes:
  - name: small
    pathPrefix: /
    upstreams: [http://$ADDR:$UPSTREAM_PORT]
ROUTES
  "$JAVA_HOME/bin/javac" -cp "$CP" -d "$WORK/classes" "$ROOT/bench/worker/StartWorker.java" "$@"
}

# bench_start_worker JAVA_OPTIONS: the Worker, built from this tree, in the background; waits until it and nginx answer.
bench_start_worker() {
  bench_worker_classpath
  # shellcheck disable=SC2086
  PYLON_SERVER_BIND=$ADDR PYLON_SERVER_PORT=$WORKER_PORT PYLON_POD_NAME=worker-bench \
  PYLON_ENVIRONMENT_ID=0123456789abcdef01234567 PYLON_DATA_DIR="$WORK/data" \
  PYLON_WORKER_ROUTES_FILE="$WORK/routes.yaml" \
    "$JAVA_HOME/bin/java" $1 -cp "$WORK/classes:$CP" StartWorker > "$WORK/worker.log" 2>&1 &
  WORKER_PID=$!
  for _ in $(seq 1 100); do
    if curl -sf "http://$ADDR:$WORKER_PORT/" >/dev/null 2>&1 && curl -sf "http://$ADDR:$PROXY_PORT/" >/dev/null 2>&1; then
      break
    fi
    sleep 0.2
  done
  curl -sf "http://$ADDR:$WORKER_PORT/" >/dev/null || { echo "the Worker did not answer; log:" >&2; cat "$WORK/worker.log" >&2; exit 1; }
}

bench_ticks() { # CPU clock ticks (user + system) used so far by the given processes
  local total=0 pid
  for pid in "$@"; do
    total=$((total + $(awk '{print $14 + $15}' "/proc/$pid/stat" 2>/dev/null || echo 0)))
  done
  echo "$total"
}
