#!/usr/bin/env bash
# podman with Pylon's configuration and storage (see env.sh); the deploy tests run containers through it.
set -euo pipefail
. "$(dirname "$0")/env.sh"
pylon_container_env
exec podman "$@"
