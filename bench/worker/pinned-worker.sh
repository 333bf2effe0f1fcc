# shellcheck shell=bash
# Sourced by the one-core gateway benches (peers.sh, stalls.sh, saturation.sh) after bench/bench-env.sh and scripts/pod-jvm.sh: a
# Worker built from a source tree and started pinned to CPU 0, the CPU its processes used, the JIT's share of it, and
# a time limit. The caller sets ADDR (a loopback address) and WORK (a temporary folder), keeps the pids it starts in
# PIDS and stops them on exit.

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
