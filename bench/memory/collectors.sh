#!/usr/bin/env bash
# The Manager's collector, compared in interleaved rounds of bench/memory/run.sh manager-tokens
# (4 clients, 60 s, right password), then one wrong-password flood each (bench/hostile/login-flood.sh, no-throttle).
# Every variant has the pod's other options and heap bound (scripts/pod-jvm.sh) and an AOT cache of its own, trained
# by one start before the rounds, as `pylon run` would.
#   bench/memory/collectors.sh          (from anywhere; needs wrk)
#   VARIANTS="serial zgc shenandoah"    any of:
#     shipped            the options `pylon run manager` gives (no PYLON_POD_JAVA_OPTS; its own AOT cache)
#     serial             the Manager's earlier options (Serial, -Xmn a quarter of the heap)
#     serial-pretenure   Serial, arrays of 4 MiB and more allocated in the old generation (-XX:PretenureSizeThreshold)
#     serial-h2default   Serial, the Manager's H2 file database with H2's own page cache size (no CACHE_SIZE)
#     zgc                generational ZGC, same -Xms/-Xmx (no -Xmn: ZGC sizes its young generation itself)
#     zgc-soft           zgc with -XX:SoftMaxHeapSize=SOFT_MAX (default 128m): collects to stay under it
#     shenandoah         Shenandoah, same -Xms/-Xmx
#     g1                 G1, same -Xms/-Xmx, pause goal G1_PAUSE (default 5 ms; no -Xmn: G1 sizes its young
#                        generation to meet the goal; the Argon2 array is a humongous object, never copied)
#   ROUNDS=3, FLOOD=1 (0: no flood), ADDR=127.0.35 (pods bind ADDR.1, the AOT training ADDR.3, the flood NET=ADDR)
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"
. scripts/jdk.sh
pylon_find_jdk
. scripts/pod-jvm.sh
ADDR=${ADDR:-127.0.35}
VARIANTS=${VARIANTS:-serial zgc shenandoah}
ROUNDS=${ROUNDS:-3}
FLOOD=${FLOOD:-1}
LIB="$ROOT/distribution/target/pylon/lib"
./pylon settings >/dev/null   # builds the distribution first when the sources changed
WORK=$(mktemp -d)
TRAINING=
trap '[ -n "$TRAINING" ] && kill "$TRAINING" 2>/dev/null; rm -rf "$WORK"' EXIT
HEAP_NO_YOUNG=$(pylon_pod_heap_opts manager)            # -Xms64m -Xmx192m by default
MX=$(echo "$HEAP_NO_YOUNG" | sed 's/.*-Xmx\([0-9]*\)m.*/\1/')
HEAP="$HEAP_NO_YOUNG -Xmn$((MX / 4))m"                 # what the serial collector had
BASE_NO_GC=$PYLON_POD_BASE_JVM_OPTS

jvm_opts() { # VARIANT: its JVM options without the start-up cache
  case $1 in
    serial|serial-h2default) echo "$PYLON_POD_JVM_OPTS $HEAP" ;;
    serial-pretenure) echo "$PYLON_POD_JVM_OPTS $HEAP -XX:PretenureSizeThreshold=4m" ;;
    zgc) echo "-XX:+UseZGC $BASE_NO_GC $HEAP_NO_YOUNG" ;;
    zgc-soft) echo "-XX:+UseZGC $BASE_NO_GC $HEAP_NO_YOUNG -XX:SoftMaxHeapSize=${SOFT_MAX:-128m}" ;;
    shipped) pylon_pod_jvm_opts manager ;;
    shenandoah) echo "-XX:+UseShenandoahGC $BASE_NO_GC $HEAP_NO_YOUNG" ;;
    g1) echo "-XX:+UseG1GC -XX:MaxGCPauseMillis=${G1_PAUSE:-5} $BASE_NO_GC $HEAP_NO_YOUNG" ;;
    *) echo "unknown variant $1" >&2; return 2 ;;
  esac
}
variant_env() { # VARIANT: environment of its pods, as NAME=VALUE words
  case $1 in
    serial-h2default)
      rm -rf "$WORK/h2"
      echo "PYLON_MANAGER_DB_URL=jdbc:h2:file:$WORK/h2/manager;DB_CLOSE_ON_EXIT=FALSE;WRITE_DELAY=0 PYLON_MANAGER_DB_USER=pylon" ;;
  esac
}
startup_opts() { # VARIANT
  mkdir -p "$WORK/cds/$1"
  pylon_pod_startup_opts "$WORK/cds/$1" manager "$LIB" "$(pylon_java_major "$PYLON_JAVA")" "$(jvm_opts "$1")"
}
pod_opts() { # VARIANT: PYLON_POD_JAVA_OPTS=... for its pods, none for shipped (the launcher's own options and cache)
  if [ "$1" = shipped ]; then echo "BENCH_VARIANT=shipped"; else echo "PYLON_POD_JAVA_OPTS=$(jvm_opts "$1") $(startup_opts "$1")"; fi
}
train() { # VARIANT: one start that records the AOT cache (written when the JVM exits)
  [ "$1" != shipped ] || return 0
  local opts
  opts="$(jvm_opts "$1") $(startup_opts "$1")"
  case "$opts" in *AOTCacheOutput=*) ;; *) return 0 ;; esac
  rm -rf "$WORK/train"
  env $(variant_env "$1") PYLON_POD_JAVA_OPTS="$opts" PYLON_DATA_DIR="$WORK/train" PYLON_ENVIRONMENT_ID=0123456789abcdef01234567 \
    PYLON_MANAGER_ADMIN_PASSWORD=training-password-0 \
    ./pylon run manager --pod-name "train-$1" --bind "$ADDR.3" --port 8080 >"$WORK/train.log" 2>&1 &
  TRAINING=$!
  for _ in $(seq 1 600); do
    curl -sf "http://$ADDR.3:8080/platform/management/health/live" >/dev/null 2>&1 && break
    sleep 0.1
  done
  kill "$TRAINING"; wait "$TRAINING" 2>/dev/null || true; TRAINING=
  case "$(startup_opts "$1")" in *AOTCache=*) ;; *) cat "$WORK/train.log"; echo "no AOT cache for $1" >&2; exit 1 ;; esac
}

echo "== $(date -u +%FT%TZ) collectors: $VARIANTS; $ROUNDS rounds; load average:$(uptime | sed 's/.*load average://'), $(nproc) cores"
for v in $VARIANTS; do
  train "$v"
  echo "$v: $(jvm_opts "$v")"
done
for round in $(seq 1 "$ROUNDS"); do
  for v in $VARIANTS; do
    echo "## round $round, $v"
    if [ "$v" = shipped ]; then
      env $(variant_env "$v") ADDR="$ADDR" bench/memory/run.sh manager-tokens | grep -v '^=='
    else
      env $(variant_env "$v") POD_OPTS="$(jvm_opts "$v") $(startup_opts "$v")" ADDR="$ADDR" \
        bench/memory/run.sh manager-tokens | grep -v '^=='
    fi
  done
done
if [ "$FLOOD" = 1 ]; then
  for v in $VARIANTS; do
    echo "## flood, $v"
    env $(variant_env "$v") "$(pod_opts "$v")" NET="$ADDR" SCENARIOS=no-throttle ROUNDS=1 \
      bench/hostile/login-flood.sh | grep -v '^=='
  done
fi
