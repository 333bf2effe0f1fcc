# shellcheck shell=bash
# Sourced: podman and buildah with Pylon's own configuration and storage under $PYLON_CACHE/containers (default
# ~/.cache/pylon/containers), outside the work tree and apart from any other podman use of the machine. The
# settings are those that work without a Docker engine on a plain VM: the overlay storage driver where the kernel
# mounts overlays (else vfs, which copies every image for every container: a minute each), runc (crun refuses some
# cgroup set-ups), cgroupfs rather than systemd, events to a file, and file/process limits no higher than what
# this process may set (runc cannot raise a hard limit without CAP_SYS_RESOURCE).
# pylon_container_env installs what is missing (as root, with apt-get) or fails naming it.

pylon_container_env() {
  local cache="${PYLON_CACHE:-$HOME/.cache/pylon}/containers" missing=() tool
  for tool in podman buildah runc mmdebstrap; do
    command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
      echo "pylon container: missing ${missing[*]} (install them: apt-get install podman buildah runc mmdebstrap uidmap)" >&2
      return 1
    fi
    echo "pylon container: installing ${missing[*]}" >&2
    apt-get update -qq >/dev/null || true
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq podman buildah runc mmdebstrap uidmap >/dev/null \
      || { echo "pylon container: could not install podman buildah runc mmdebstrap uidmap" >&2; return 1; }
  fi
  local driver=vfs probe nofile nproc
  probe=$(mktemp -d)
  mkdir -p "$probe/l" "$probe/u" "$probe/w" "$probe/m"
  if mount -t overlay overlay -o "lowerdir=$probe/l,upperdir=$probe/u,workdir=$probe/w" "$probe/m" 2>/dev/null; then
    umount "$probe/m" && driver=overlay
  fi
  rm -rf "$probe"
  nofile=$(ulimit -Hn); [ "$nofile" = unlimited ] || [ "$nofile" -gt 16384 ] && nofile=16384
  nproc=$(ulimit -Hu); [ "$nproc" = unlimited ] || [ "$nproc" -gt 16384 ] && nproc=16384
  # one storage per driver: containers/storage refuses to open a store made by another driver
  mkdir -p "$cache/storage-$driver" "$cache/run-$driver" "$cache/tmp"
  cat > "$cache/storage.conf" <<CONF
[storage]
driver = "$driver"
graphroot = "$cache/storage-$driver"
runroot = "$cache/run-$driver"
CONF
  cat > "$cache/containers.conf" <<CONF
[containers]
netns = "host"
default_ulimits = ["nofile=$nofile:$nofile", "nproc=$nproc:$nproc"]
[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
events_logger = "file"
events_logfile_path = "$cache/events.log"
tmp_dir = "$cache/tmp"
CONF
  export CONTAINERS_STORAGE_CONF="$cache/storage.conf" CONTAINERS_CONF="$cache/containers.conf"
  export PYLON_CONTAINER_CACHE="$cache"
}
