# shellcheck shell=bash
# Sourced by the one-core gateway benches (ab.sh, h2-upstream.sh, leaves.sh, peers.sh, saturation.sh, stalls.sh) after
# bench/bench-env.sh, with what they share: the pod's JVM options (scripts/pod-jvm.sh), the upstream nginx
# (upstream.sh), the tools and CPUs they need, the bench's loopback address and work folder, a Worker built from a
# source tree and started pinned to CPU 0, the CPU its processes used, the JIT's share of it, and a time limit. The
# caller calls bench_needs, sets ADDR, calls bench_work, and keeps the pids it starts in PIDS.

# shellcheck source=scripts/pod-jvm.sh
. "$ROOT/scripts/pod-jvm.sh"
# shellcheck source=bench/worker/upstream.sh
. "$ROOT/bench/worker/upstream.sh"

# bench_needs TOOL...: exits unless every tool is installed and there are 2 CPUs (servers on CPU 0, the upstream and
# the load generator on CPU 1), naming the Debian package of what is missing.
bench_needs() {
  local tool package
  for tool in "$@"; do
    command -v "$tool" >/dev/null 2>&1 && continue
    case "$tool" in
      h2load) package=nghttp2-client ;; nginx) package=nginx-light ;; taskset) package=util-linux ;;
      ss) package=iproute2 ;; *) package=$tool ;;
    esac
    echo "$tool is missing (apt-get install -y $package)" >&2
    exit 1
  done
  [ "$(nproc)" -ge 2 ] || { echo "needs 2 CPUs (servers on CPU 0, the upstream and the load generator on CPU 1)" >&2; exit 1; }
}

# bench_work NAME: exits unless ADDR is a loopback address (benches talk to 127.0.0.0/8 only); makes WORK, a temporary
# folder others may read (nginx's workers run as another user), and PIDS, which the bench fills: on exit, or when
# interrupted, every process in it is stopped and WORK removed.
bench_work() {
  case "$ADDR" in
    127.*) ;;
    *) echo "BENCH_ADDR must be a loopback address (127.x.y.z), not '$ADDR'" >&2; exit 1 ;;
  esac
  WORK=$(mktemp -d "/tmp/pylon-bench-$1.XXXXXX")
  chmod 755 "$WORK"
  PIDS=()
  trap bench_stop EXIT
  trap 'exit 130' INT TERM # through the EXIT trap
}

bench_stop() {
  local pid
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$WORK"
}

# build_worker TREE NAME [JAVA_FILE...]: builds the Worker of TREE (no `mvn install`: the class path names the jars and
# classes of that tree), writes $WORK/NAME.cp and compiles StartWorker.java and the given files into $WORK/NAME.classes.
build_worker() {
  local tree=$1 name=$2
  shift 2
  if ! nice -n 10 "$tree/mvnw" -B -q -o -f "$tree/pom.xml" -pl worker -am package dependency:build-classpath -DskipTests \
      -DskipErrorProne -Dmdep.includeScope=runtime -Dmdep.outputFile="$WORK/$name.cp.txt" > "$WORK/$name.build.log" 2>&1; then
    echo "cannot build the Worker in $tree (./mvnw -o -pl worker -am package); Maven said:" >&2
    grep -v '^WARNING' "$WORK/$name.build.log" >&2 || true
    exit 1
  fi
  echo "$tree/worker/target/classes:$(cat "$WORK/$name.cp.txt")" > "$WORK/$name.cp"
  "$JAVA_HOME/bin/javac" -cp "$(cat "$WORK/$name.cp")" -d "$WORK/$name.classes" "$ROOT/bench/worker/StartWorker.java" "$@"
}

# start_worker NAME BUILD PORT ROUTES_FILE [JVM_OPTION...]: a Worker pod on CPU 0 with the JVM options a pod gets
# (WORKER_JAVA_OPTS replaces them) and the given ones, logging to $WORK/NAME.log; prints its pid.
start_worker() {
  local name=$1 build=$2 port=$3 routes=$4
  shift 4
  # shellcheck disable=SC2046
  PYLON_SERVER_BIND=$ADDR PYLON_SERVER_PORT=$port PYLON_POD_NAME=worker-bench-$name \
  PYLON_ENVIRONMENT_ID=0123456789abcdef01234567 PYLON_DATA_DIR="$WORK/$name.data" PYLON_WORKER_ROUTES_FILE="$routes" \
    taskset -c 0 "$JAVA_HOME/bin/java" ${WORKER_JAVA_OPTS:-$PYLON_POD_JVM_OPTS $(pylon_pod_heap_opts worker)} "$@" \
    -cp "$WORK/$build.classes:$(cat "$WORK/$build.cp")" StartWorker > "$WORK/$name.log" 2>&1 &
  echo $!
}

ticks() { # PID...: CPU clock ticks (user + system) they have used so far
  local total=0 pid
  for pid in "$@"; do total=$((total + $(awk '{print $14 + $15}' "/proc/$pid/stat" 2>/dev/null || echo 0))); done
  echo "$total"
}

jit_ticks() { # PID: CPU ticks its JIT compiler threads have used so far
  cat /proc/"$1"/task/*/stat 2>/dev/null | awk '/\((C1|C2) CompilerThre/ { sub(/.*\) /, ""); n += $12 + $13 } END { print n + 0 }'
}

# time_limit SECONDS NAME: stops this script (TERM, through its traps) after SECONDS; keep the pid in PIDS
time_limit() {
  ( trap 'kill $! 2>/dev/null; exit 0' TERM; sleep "$1" & wait $!; echo "$2: time limit of $1 s reached" >&2; kill -TERM $$ ) &
}
