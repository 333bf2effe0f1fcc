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
