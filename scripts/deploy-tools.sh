#!/usr/bin/env bash
# Prepares what the deploy tests (deploy-tests/) need, once per machine under $PYLON_CACHE (default ~/.cache/pylon):
# the Kubernetes API server with etcd and kubectl (scripts/k8s/apiserver.sh) and the test base image
# (scripts/container/base-image.sh), side by side: the Go build is CPU, mmdebstrap mostly network and disk. The Go
# build runs under nice 19, so that tests running at the same time (CI starts this in the background) keep the CPU.
# Both scripts hold a lock while they work, so a deploy test that needs them meanwhile waits for them. Exits non-zero
# if either failed; their messages say why.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
base_out=$(mktemp)
bash scripts/container/base-image.sh > "$base_out" &
base_pid=$!
status=0
if k8s_bin=$(nice -n 19 bash scripts/k8s/apiserver.sh); then
  echo "deploy tools: Kubernetes tools in $k8s_bin: $(cat "$k8s_bin/kube-apiserver.ok")"
else
  status=1
fi
if wait "$base_pid"; then
  echo "deploy tools: test base image $(cat "$base_out")"
else
  status=1
fi
rm -f "$base_out"
echo "deploy tools: ready after $(( $(date +%s) - start ))s$([ "$status" = 0 ] || echo ', with failures (see above)')"
exit "$status"
