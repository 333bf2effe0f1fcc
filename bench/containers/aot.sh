#!/usr/bin/env bash
# Start-up of the image's modules with the AOT cache trained at build time against class-data sharing
# (BENCHMARKS.md, "Containers"). Builds the image twice with scripts/container/image.sh
# (with the training and with PYLON_AOT_TRAINING=off: build time and image size), then for ROUNDS interleaved rounds
# starts each module's container (podman, host network, the manifests' user, read-only root, memory and CPU limits
# given below) and times `podman run` to the first 200 of its health endpoint, in three ways:
#   aot          the image's AOT cache (what every pod of the image does)
#   cds-first    PYLON_POD_AOT_CACHE=false, empty data volume: a new pod (the JDK's default archive only)
#   cds-restart  PYLON_POD_AOT_CACHE=false, the archive a first run wrote into the data volume: a restarted container
# Prints medians per module and way. Binds 127.0.38.21-25 (ADDR=127.0.38 by default; ADDR=127.0.x moves it).
# Usage: bench/containers/aot.sh [ROUNDS]   (needs the distribution built: ./mvnw -B -pl distribution -am package -DskipTests)
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=${1:-5}
addr=${ADDR:-127.0.38}
podman=scripts/container/podman.sh
image=localhost/pylon:bench-aot
plain=localhost/pylon:bench-noaot
work=$(mktemp -d /tmp/pylon-bench-aot.XXXXXX)
trap '$podman rm -f --ignore -t 0 pylon-bench-aot >/dev/null 2>&1 || true; rm -rf "$work"' EXIT

echo "== $(date -u +%FT%TZ) load: $(uptime | sed 's/.*load average: //'), $(nproc) cores"
for kind in "$image on" "$plain off"; do
  set -- $kind
  started=$(date +%s%N)
  PYLON_AOT_TRAINING=$2 PYLON_AOT_TRAINING_ADDRESS=$addr.20 scripts/container/image.sh "$1" >/dev/null
  echo "build $1 (training $2): $(( ($(date +%s%N) - started) / 1000000 )) ms, image $(( $($podman image inspect --format '{{.Size}}' "$1") / 1000000 )) MB"
done

# module port memory-limit cpu-limit address (the manifests' limits)
modules="manager 8080 768m 1 $addr.21
worker 8091 1g 2 $addr.22
cache 8090 1536m 2 $addr.23
integration 8092 512m 1 $addr.24
portal 8080 384m 1 $addr.25"

# start MODULE PORT MEMORY CPUS ADDRESS DATA_DIR AOT(true|false): prints ms from `podman run` to the first health 200
start() {
  local t0 url=http://$5:$2/platform/management/health
  $podman rm -f --ignore -t 0 pylon-bench-aot >/dev/null
  t0=$(date +%s%N)
  $podman run -d --name pylon-bench-aot --network host --user 10001:10001 --memory "$3" --memory-swap "$3" --cpus "$4" \
    --read-only --read-only-tmpfs=false --tmpfs /tmp:rw,nosuid,nodev,mode=1777,size=64m --cap-drop all \
    --security-opt no-new-privileges -v "$6:/var/lib/pylon:rw" -e PYLON_SERVER_BIND="$5" -e PYLON_POD_NAME="$1-bench" \
    -e PYLON_ENVIRONMENT_ID=bench0123456789abcdef01 -e PYLON_POD_AOT_CACHE="$7" "$image" run "$1" >/dev/null
  until [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 "$url")" = 200 ]; do
    [ "$($podman inspect --format '{{.State.Running}}' pylon-bench-aot)" = true ] \
      || { echo "$1 stopped:" >&2; $podman logs pylon-bench-aot >&2; exit 1; }
    [ $(( ($(date +%s%N) - t0) / 1000000000 )) -lt 300 ] || { echo "$1: no health 200 in 300 s" >&2; exit 1; }
    sleep 0.02
  done
  echo $(( ($(date +%s%N) - t0) / 1000000 ))
}

fresh_dir() {
  rm -rf "$1" && mkdir -p "$1" && chown 10001:10001 "$1" && chmod 750 "$1"
}

# the archive of each module's restarted container: one first run stopped with SIGTERM writes it
while read -r module port memory cpus address; do
  fresh_dir "$work/$module-archive"
  start "$module" "$port" "$memory" "$cpus" "$address" "$work/$module-archive" false >/dev/null
  $podman stop -t 120 pylon-bench-aot >/dev/null
  [ -s "$work/$module-archive/pylon.jsa" ] || { echo "$module wrote no pylon.jsa" >&2; exit 1; }
done <<<"$modules"

declare -A runs
for round in $(seq 1 "$rounds"); do
  while read -r module port memory cpus address; do
    for way in aot cds-first cds-restart; do
      case $way in
        aot) fresh_dir "$work/data"; ms=$(start "$module" "$port" "$memory" "$cpus" "$address" "$work/data" true) ;;
        cds-first) fresh_dir "$work/data"; ms=$(start "$module" "$port" "$memory" "$cpus" "$address" "$work/data" false) ;;
        cds-restart) ms=$(start "$module" "$port" "$memory" "$cpus" "$address" "$work/$module-archive" false) ;;
      esac
      # SIGKILL: a restart's archive stays as the first run wrote it, and no run pays for the next one's exit
      $podman rm -f -t 0 pylon-bench-aot >/dev/null
      runs[$module/$way]="${runs[$module/$way]:-} $ms"
    done
  done <<<"$modules"
  echo "round $round done, load: $(uptime | sed 's/.*load average: //')"
done

median() {
  tr ' ' '\n' <<<"$1" | grep . | sort -n | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : int((v[NR/2]+v[NR/2+1])/2)}'
}
echo "| module | aot (ms, median of $rounds) | cds-first | cds-restart | aot / cds-first | aot / cds-restart |"
echo "|---|---|---|---|---|---|"
while read -r module _; do
  a=$(median "${runs[$module/aot]}"); f=$(median "${runs[$module/cds-first]}"); r=$(median "${runs[$module/cds-restart]}")
  printf '| %s | %s (runs:%s) | %s (runs:%s) | %s (runs:%s) | %.2fx | %.2fx |\n' "$module" "$a" "${runs[$module/aot]}" \
    "$f" "${runs[$module/cds-first]}" "$r" "${runs[$module/cds-restart]}" "$(bc -l <<<"$a/$f")" "$(bc -l <<<"$a/$r")"
done <<<"$modules"
echo "== $(date -u +%FT%TZ) load: $(uptime | sed 's/.*load average: //')"
