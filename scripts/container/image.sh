#!/usr/bin/env bash
# Builds Pylon's image from deploy/kubernetes/Dockerfile with buildah (no daemon), on the test base image made
# locally (base-image.sh) instead of the public eclipse-temurin one, and prints its name. Needs the distribution
# built first (distribution/target/pylon/lib). The build trains each module's AOT cache on a free port of
# PYLON_AOT_TRAINING_ADDRESS (buildah's chroot isolation shares the host's network; default 127.0.21.35, beside the
# deploy tests' containers), a minute or so; PYLON_AOT_TRAINING=off builds without.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
. "$here/env.sh"
pylon_container_env
[ -d "$root/distribution/target/pylon/lib" ] \
  || { echo "pylon container: $root/distribution/target/pylon/lib is missing; build the distribution first" >&2; exit 1; }
base=$("$here/base-image.sh")
image="${1:-localhost/pylon:test}"
buildah bud --quiet --isolation chroot --from "$base" \
  --build-arg PYLON_AOT_TRAINING="${PYLON_AOT_TRAINING:-on}" \
  --build-arg PYLON_AOT_TRAINING_ADDRESS="${PYLON_AOT_TRAINING_ADDRESS:-127.0.21.35}" -f "$root/deploy/kubernetes/Dockerfile" -t "$image" "$root" >/dev/null
echo "$image"
