# Sourced by the diagnostics benches that run one pod on core's classes: finds the JDK (JAVA), checks BENCH_ADDR
# (ADDR, a loopback address, default 127.0.0.1), and defines core_classpath, which prints the class path of core's
# compiled classes (copied into the given folder, so that other builds cannot swap classes under the pod) and their
# runtime dependencies. No install.
. "$(dirname "${BASH_SOURCE[0]}")/../bench-env.sh"
ADDR=${BENCH_ADDR:-127.0.0.1}
case "$ADDR" in 127.*) ;; *) echo "BENCH_ADDR must be a loopback address" >&2; exit 1 ;; esac

core_classpath() {
  ./mvnw -B -q -o -pl core compile dependency:build-classpath -Dmdep.includeScope=runtime \
    -Dmdep.outputFile="$1/cp.txt" >/dev/null
  cp -r core/target/classes "$1/core-classes"
  echo "$1/core-classes:$(cat "$1/cp.txt")"
}
