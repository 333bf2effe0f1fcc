#!/usr/bin/env bash
# Every attack of the hostile-world run, one after the other, each against real pods it starts itself on its
# own loopback addresses (127.0.11-15.x). Figures and what they mean: BENCHMARKS.md, "Gateway", "Management API and sign-in"
# and "Data grid".
#   login flood   bench/hostile/login-flood.sh     probe latency of a Manager under a wrong-password flood
#   fuzz          bench/hostile/fuzz               responses >= 500, smuggled responses, forged log lines
#   kill -9       bench/hostile/kill9.sh           acknowledged writes lost over 5 kill -9 runs
#   SIGTERM       bench/hostile/sigterm.sh         wrk errors when SIGTERM lands under wrk -c32 (needs wrk)
#   descriptors   bench/hostile/descriptors.sh     time to the next 200 after descriptor exhaustion
#   grid, dumps   bench/hostile/grid-join.sh       a stock Hazelcast client with what a viewer sees; heap-dump stall
# Usage: bench/hostile/run.sh [names...]   (default: all of login-flood fuzz kill9 sigterm descriptors grid-join)
set -euo pipefail
cd "$(dirname "$0")"
names=("$@")
[ ${#names[@]} -gt 0 ] || names=(login-flood fuzz kill9 sigterm descriptors grid-join)
for name in "${names[@]}"; do
  case "$name" in
    fuzz) script=./fuzz ;;
    login-flood|kill9|sigterm|descriptors|grid-join) script="./$name.sh" ;;
    *) echo "unknown attack '$name' (login-flood fuzz kill9 sigterm descriptors grid-join)" >&2; exit 2 ;;
  esac
  echo "=== $name ($(date -u +%H:%M:%S) UTC, load average $(cut -d' ' -f1-3 /proc/loadavg))"
  "$script"
done
