# shellcheck shell=bash
# Sourced: the JVM options of a local pod (and of the CLI commands), for ./pylon and the benchmarks that start pods the way it does.
# PodProcess.BASE_JAVA_OPTS, PodHeap and StartupCache hold the same for `pylon up` (PodJvmOptionsTest keeps them equal).

# Every pod's options but its collector: a small initial heap given back after full collections; freed C heap (the JIT
# compilers' arenas) given back to the OS every 5 s, so a pod returns near its idle RSS after load (BENCHMARKS.md,
# "Start-up and memory").
PYLON_POD_BASE_JVM_OPTS="-Xms16m -Xss512k -XX:MinHeapFreeRatio=10 -XX:MaxHeapFreeRatio=20 -XX:TrimNativeHeapInterval=5000"
# A Worker's, Cache's, Integration's and Portal's (and what the Worker benchmarks start): the serial collector (small
# pods, one or two cores: the least memory and no collector threads).
PYLON_POD_JVM_OPTS="-XX:+UseSerialGC $PYLON_POD_BASE_JVM_OPTS"

# pylon_pod_gc_opts MODULE: the collector of a module's pod. The Manager's is G1 with a 5 ms pause goal: the serial
# collector's young pauses copied what survived in one go, 14-42 ms under token load against the 10 ms target; G1's
# stayed under 9 ms, with less memory than Serial and the same start-up, where ZGC's start was 1.5x (its AOT cache
# has no linked classes) and its RSS 35% higher (BENCHMARKS.md, "Start-up and memory").
pylon_pod_gc_opts() {
  case "$1" in
    manager) echo "-XX:+UseG1GC -XX:MaxGCPauseMillis=5" ;;
    *) echo "-XX:+UseSerialGC" ;;
  esac
}

# pylon_pod_jvm_opts MODULE: all JVM options of a module's pod but its start-up cache (fails as pylon_pod_heap_opts).
pylon_pod_jvm_opts() {
  local heap
  heap=$(pylon_pod_heap_opts "$1") || return 1
  echo "$(pylon_pod_gc_opts "$1") $PYLON_POD_BASE_JVM_OPTS $heap"
}

# pylon_pod_quiet_opts MODULE JAVA_MAJOR: what keeps a pod's start free of warnings that need no action, even with
# PYLON_POD_JAVA_OPTS (QuietJvm for `pylon up`): sun.misc.Unsafe's memory access allowed on JDK 23 and later (the data
# grid's library uses it), and for a Cache pod the JDK internals its grid member reads.
pylon_pod_quiet_opts() {
  local opts=
  [ "$2" -ge 23 ] && opts="--sun-misc-unsafe-memory-access=allow"
  [ "$1" = cache ] && opts="${opts:+$opts }--add-exports java.base/jdk.internal.ref=ALL-UNNAMED --add-opens java.base/java.lang=ALL-UNNAMED --add-opens java.base/sun.nio.ch=ALL-UNNAMED --add-opens java.management/sun.management=ALL-UNNAMED --add-opens jdk.management/com.sun.management.internal=ALL-UNNAMED"
  echo "$opts"
}

# The operator commands of ./pylon (a JVM living well under a second): C1 only and the serial collector.
PYLON_CLI_JVM_OPTS="-XX:+UseSerialGC -XX:TieredStopAtLevel=1"

# pylon_pod_heap_default MODULE: the maximum heap of a module's pod unless PYLON_POD_HEAP_MAX says otherwise.
pylon_pod_heap_default() {
  case "$1" in
    manager) echo 192m ;;   # Argon2id holds 19 MiB per hashing thread (at most 4 by default)
    cache) echo 256m ;;     # the data grid's entries
    worker) echo 128m ;;
    integration) echo 128m ;;  # runs hold step outputs (1 MiB a response by default) and their JSONata values
    *) echo 64m ;;
  esac
}

# pylon_pod_heap_opts MODULE: -Xmx from PYLON_POD_HEAP_MAX (a size such as 96m or 1g) or the module's default, and
# (serial collector) a young generation of a quarter of it, fixed: large enough that request garbage dies young instead
# of filling the old generation, which only a full collection empties. The initial heap is a quarter and 16 MiB:
# smaller, the JVM shrinks the young generation to fit, and an AOT cache's archived objects no longer fit the old one
# (a JVM that cannot load them does not start). The Manager's G1 sizes its young generation itself to meet its pause goal: no -Xmn. Fails
# naming the setting when invalid.
pylon_pod_heap_opts() {
  local size=${PYLON_POD_HEAP_MAX:-$(pylon_pod_heap_default "$1")} mb
  size=${size#"${size%%[![:space:]]*}"}   # surrounding blanks do not count, as for every setting
  size=${size%"${size##*[![:space:]]}"}
  case "$size" in
    ??????????????*) mb= ;;  # more digits than a heap size has (and than shell arithmetic holds)
    *[!0-9kKmMgG]* | [!0-9]* | *[kKmMgG]?*) mb= ;;
    *[gG]) mb=$(( 10#${size%?} * 1024 )) ;;
    *[mM]) mb=$(( 10#${size%?} )) ;;
    *[kK]) mb=$(( 10#${size%?} / 1024 )) ;;
    *) mb=$(( 10#$size / 1048576 )) ;;
  esac
  if [ -z "$mb" ] || [ "$mb" -lt 32 ] || [ "$mb" -gt 1048576 ]; then
    # the message of the pod's own check (SettingType.HEAP_SIZE)
    printf "pylon: Invalid setting pylon.pod.heap-max (environment variable PYLON_POD_HEAP_MAX): '%s' is not a heap size from 32m to 1024g such as 96m, 512m or 2g.\n" \
      "$PYLON_POD_HEAP_MAX" >&2
    return 1
  fi
  case "$1" in
    manager) echo "-Xms$(( mb / 4 + 16 ))m -Xmx${mb}m" ;;
    *) echo "-Xms$(( mb / 4 + 16 ))m -Xmx${mb}m -Xmn$(( mb / 4 ))m" ;;
  esac
}

# pylon_startup_key LIB_DIR JVM_OPTIONS: 16 hex digits naming the library (the name, size and modification second of
# every jar) and the JVM options, so that a start-up cache trained on other jars or another heap is never used and a
# changed jar gets a fresh one.
pylon_startup_key() {
  local sum
  # two processes (stat, sha256sum) where find | sed | sort | cut took five: this runs before every pod start
  sum=$(cd "$1" && LC_ALL=C && { stat -c '%n %s %Y' -- *.jar; echo "jvm $2"; } | sha256sum)
  echo "${sum:0:16}"
}

# pylon_pod_startup_opts DIR NAME LIB_DIR JAVA_MAJOR JVM_OPTIONS: the start-up cache options of a pod. On JDK 25 and later an
# AOT cache (classes loaded and linked, profiles) DIR/NAME-<key>.aot: the first start records and writes it at exit,
# later starts use it; caches of other libraries are deleted. Only the JVM's errors about it are shown (one it
# cannot use is named; delete it to train a new one). Before JDK 25 the class-data-sharing archive
# DIR/NAME.jsa, which the JVM writes at the first exit; one older than a jar of the class path is dropped first,
# since the JVM neither uses nor rewrites it. Either way a missing or unusable file only costs start-up time.
pylon_pod_startup_opts() {
  local dir=$1 name=$2 lib=$3 major=$4 jvm=$5 cache stale
  if [ "$major" -ge 25 ]; then
    cache="$dir/$name-$(pylon_startup_key "$lib" "$jvm").aot"
    # caches of other jars or options, and the recording a JVM left when it was killed while writing its cache
    # (<cache>.config, hundreds of MB), which the JVM neither uses nor removes
    for stale in "$dir/$name"-*.aot "$dir/$name"-*.aot.config "$dir/$name"-*.aot.ok; do
      [ "$stale" = "$cache" ] || [ "$stale" = "$cache.ok" ] || rm -f "$stale"
    done
    if [ -s "$cache" ]; then
      echo "-XX:AOTCache=$cache -Xlog:aot*=error -Xlog:cds*=error"
    else
      echo "-XX:AOTCacheOutput=$cache -Xlog:aot*=error -Xlog:cds*=error"
    fi
  else
    pylon_pod_cds_opts "$dir/$name.jsa" "$lib"
  fi
}

# pylon_pod_check_cache DIR NAME LIB_DIR JAVA_MAJOR JVM_OPTIONS JAVA: deletes the pod's AOT cache for these jars and
# options when the JVM cannot start from it, so that this start records a new one (StartupCache.dropIfUnusable: a
# cache written by a JVM stopped while still starting made the next ones crash). Once per cache: NAME-<key>.aot.ok.
pylon_pod_check_cache() {
  local dir=$1 name=$2 lib=$3 major=$4 jvm=$5 java=$6 cache
  [ "$major" -ge 25 ] || return 0
  cache="$dir/$name-$(pylon_startup_key "$lib" "$jvm").aot"
  [ -s "$cache" ] && [ ! -e "$cache.ok" ] || return 0
  # shellcheck disable=SC2086
  if "$java" $jvm -XX:AOTCache="$cache" -XX:AOTMode=on -Xlog:disable -Xlog:all=off -XX:ErrorFile=/dev/null \
      -XX:-CreateCoredumpOnCrash -cp "$lib/*" -version >/dev/null 2>&1; then
    : >"$cache.ok"
  else
    rm -f "$cache"
  fi
}

# pylon_cli_startup_opts DIR LIB_DIR JAVA_MAJOR COMMAND: the start-up cache options of an operator command (pylon pods,
# login...): the pods' (pylon_pod_startup_opts) under the name cli, keyed by the CLI's JVM options. On JDK 25 a missing
# AOT cache is recorded only by a command that reaches a Manager: the first command trains the cache for every later
# one, and one that only prints help, reads the config or fails on a typo would leave out the HTTP client and JSON. The
# recording command takes 2-3.5 s longer (the JVM writes the cache at its exit; docs/cli.md).
pylon_cli_startup_opts() {
  local dir=$1 lib=$2 major=$3 command=$4 opts
  opts=$(pylon_pod_startup_opts "$dir" cli "$lib" "$major" "$PYLON_CLI_JVM_OPTS")
  case "$opts:$command" in
    -XX:AOTCacheOutput=*:login | -XX:AOTCacheOutput=*:pods | -XX:AOTCacheOutput=*:top | -XX:AOTCacheOutput=*:diag \
      | -XX:AOTCacheOutput=*:health | -XX:AOTCacheOutput=*:version | -XX:AOTCacheOutput=*:collect) ;;
    -XX:AOTCacheOutput=*) opts= ;;
  esac
  echo "$opts"
}

# pylon_pod_cds_opts ARCHIVE LIB_DIR: the class-data-sharing options of a pod. The JVM neither uses nor rewrites an
# archive older than a jar of the class path, so such an archive is dropped first; this start writes a fresh one.
pylon_pod_cds_opts() {
  local archive=$1 lib=$2
  if [ -f "$archive" ] && [ -n "$(find "$lib" -name '*.jar' -newer "$archive" -print -quit)" ]; then
    rm -f "$archive"
  fi
  echo "-XX:+AutoCreateSharedArchive -XX:SharedArchiveFile=$archive -Xlog:cds*=off"
}
