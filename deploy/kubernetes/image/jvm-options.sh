# shellcheck shell=bash
# Sourced by pylon-entrypoint and pylon-aot-train: the JVM options and class path of a pod of the image, one
# definition for both, since an AOT cache trained with other options may be unusable (or, for some heap options, stop
# the JVM: see pylon-entrypoint).

PYLON_HOME=/opt/pylon
PYLON_AOT_DIR=$PYLON_HOME/aot

# The heap follows the container's memory limit; on OutOfMemoryError the pod exits and Kubernetes restarts it. Before
# it exits, the JVM runs the OnOutOfMemoryError command (the JVM is stopped at a safepoint then: nothing can ask it
# for threads), which leaves a marker that the black box turns into an out-of-memory capture at the next start.
PYLON_IMAGE_JVM_OPTS=(-XX:MaxRAMPercentage=70 -XX:+ExitOnOutOfMemoryError
  "-XX:OnOutOfMemoryError=touch /var/lib/pylon/postmortem/oom-%p")

# pylon_image_gc MODULE: the collector of a module's pod, as `pylon run` gives it (scripts/pod-jvm.sh): G1 with a 5 ms
# pause goal for the Manager (BENCHMARKS.md, "Start-up and memory"); the serial one for the others, which the JVM
# would pick itself below 2 CPUs or 1792 MiB, stated for larger containers. Training and pods use the same so that a
# pod gets all of its cache: one trained with another collector may lose its archived objects or (ZGC) not map.
pylon_image_gc() {
  case "$1" in
    manager) echo "-XX:+UseG1GC -XX:MaxGCPauseMillis=5" ;;
    *) echo "-XX:+UseSerialGC" ;;
  esac
}

# pylon_image_quiet MODULE: what keeps a pod's start free of JVM warnings that need no action, as `pylon up` and
# `pylon run` give it (QuietJvm, scripts/pod-jvm.sh): the data grid's library reads fields through sun.misc.Unsafe
# (the image's JDK 25 warns about that, four lines per pod), and a Cache pod's grid member reads the JDK internals
# that Hazelcast names in its "modular environment" warning. Training and pods use the same, like the collector.
pylon_image_quiet() {
  echo "--sun-misc-unsafe-memory-access=allow"
  if [ "$1" = cache ]; then
    echo "--add-exports java.base/jdk.internal.ref=ALL-UNNAMED --add-opens java.base/java.lang=ALL-UNNAMED"
    echo "--add-opens java.base/sun.nio.ch=ALL-UNNAMED --add-opens java.management/sun.management=ALL-UNNAMED"
    echo "--add-opens jdk.management/com.sun.management.internal=ALL-UNNAMED"
  fi
}

# pylon_image_classpath: the jars of lib/, absolute and in the shell's sorted order. Not `lib/*`: the launcher expands
# that in directory order, which depends on the file system (another storage driver, another order), and an AOT cache
# is only used with the class path it was trained with.
pylon_image_classpath() {
  local jar cp=
  for jar in "$PYLON_HOME"/lib/*.jar; do
    cp=${cp:+$cp:}$jar
  done
  echo "$cp"
}
