# shellcheck shell=bash
# Sourced: the JVM options of a local pod (and of the CLI commands), for ./pylon and the benchmarks that start pods the way it does.
# PodProcess.DEFAULT_JAVA_OPTS holds the same options for `pylon up` (PodJvmOptionsTest keeps them equal).

PYLON_POD_JVM_OPTS="-XX:+UseSerialGC -Xms16m -Xss512k -XX:MinHeapFreeRatio=10 -XX:MaxHeapFreeRatio=20"

# The operator commands of ./pylon (a JVM living well under a second): C1 only and the serial collector.
PYLON_CLI_JVM_OPTS="-XX:+UseSerialGC -XX:TieredStopAtLevel=1"

# pylon_pod_cds_opts ARCHIVE LIB_DIR: the class-data-sharing options of a pod. The JVM neither uses nor rewrites an
# archive older than a jar of the class path, so such an archive is dropped first; this start writes a fresh one.
pylon_pod_cds_opts() {
  local archive=$1 lib=$2
  if [ -f "$archive" ] && [ -n "$(find "$lib" -name '*.jar' -newer "$archive" -print -quit)" ]; then
    rm -f "$archive"
  fi
  echo "-XX:+AutoCreateSharedArchive -XX:SharedArchiveFile=$archive -Xlog:cds*=off"
}
