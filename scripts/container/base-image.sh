#!/usr/bin/env bash
# The base image the tests build Pylon's image on, made locally because no registry but Debian's is reachable:
# Debian bookworm's essential packages plus passwd (the Dockerfile's RUN adds a user), made with mmdebstrap, with a
# JRE made by jlink from the build's JDK at /opt/java/openjdk, the layout of eclipse-temurin images that production
# builds start from. mmdebstrap rather than debootstrap: it downloads with apt in parallel and unpacks in one pass
# (23 s of CPU, 100-170 s at a load of 9-28, against debootstrap's ~540 s), and the essential set is all that the JRE
# needs (glibc).
# Cached as tars under $PYLON_CACHE/containers (the Debian part once per machine; the JRE once per JDK) and imported
# into podman's storage when missing. One run at a time (a lock), so the tests can wait for CI's preparation.
# Prints the image name.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/env.sh"
. "$here/../jdk.sh"
pylon_container_env
pylon_find_jdk >/dev/null
exec 9>"$PYLON_CONTAINER_CACHE/.base-image.lock"
if ! flock -n 9; then
  echo "pylon container: waiting for another scripts/container/base-image.sh (log: $PYLON_CONTAINER_CACHE/mmdebstrap.log)" >&2
  flock 9
fi

jdk_version=$("$PYLON_JAVA" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.runtime\.version = //p' | tr '+' '_')
image="localhost/pylon-test-base:bookworm-essential-jre${jdk_version}"
tar="$PYLON_CONTAINER_CACHE/pylon-test-base-bookworm-essential-jre${jdk_version}.tar"

if podman image exists "$image"; then
  echo "$image"
  exit 0
fi
debian="$PYLON_CONTAINER_CACHE/bookworm-essential.tar"
if [ ! -f "$tar" ]; then
  [ "$(id -u)" = 0 ] || { echo "pylon container: mmdebstrap needs root to make the test base image" >&2; exit 1; }
  rootfs="$PYLON_CONTAINER_CACHE/rootfs.tmp"
  rm -rf "$rootfs" && mkdir -p "$rootfs"
  if [ ! -f "$debian" ]; then
    # the slow step (a minute or two), kept on its own so that another JDK only redoes the JRE
    echo "pylon container: making the test base image (mmdebstrap bookworm + jlink JRE ${jdk_version}), once" >&2
    # merged /usr made by mmdebstrap's own hook, so that usr-is-merged replaces usrmerge (which pulls in perl)
    rm -rf "$debian.tmp"
    mmdebstrap --format=tar --variant=essential --include=passwd --hook-dir=/usr/share/mmdebstrap/hooks/merged-usr \
      --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/locale/*' \
      bookworm "$debian.tmp" http://deb.debian.org/debian >"$PYLON_CONTAINER_CACHE/mmdebstrap.log" 2>&1 \
      || { echo "pylon container: mmdebstrap failed (see $PYLON_CONTAINER_CACHE/mmdebstrap.log)" >&2; exit 1; }
    mv "$debian.tmp" "$debian"
  fi
  tar -C "$rootfs" -xf "$debian"
  # every module of the JDK but its development tools (compiler, jlink, jshell, debugger agents...) and incubators
  modules=$("$PYLON_JAVA" --list-modules | sed 's/@.*//' | grep -v -E \
    '^(jdk\.(compiler|jlink|jpackage|jshell|javadoc|jdeps|jartool|jdi|jdwp\.agent|jstatd|jconsole|editpad|hotspot\.agent|internal\.(ed|le|opt|md)|incubator\..*)|java\.smartcardio)$' \
    | paste -sd, -)
  "$JAVA_HOME/bin/jlink" --add-modules "$modules" --strip-debug --no-man-pages --no-header-files \
    --output "$rootfs/opt/java/openjdk"
  # the JDK's default class-data-sharing archive, as a JRE ships it: the pods' own archive is built on top of it
  "$rootfs/opt/java/openjdk/bin/java" -Xshare:dump -Xlog:cds=off -version >/dev/null 2>&1
  [ -f "$rootfs/opt/java/openjdk/lib/server/classes.jsa" ] \
    || { echo "pylon container: java -Xshare:dump wrote no lib/server/classes.jsa" >&2; exit 1; }
  tar -C "$rootfs" -cf "$tar.tmp" . && mv "$tar.tmp" "$tar"
  rm -rf "$rootfs"
fi
podman import --quiet \
  --change 'ENV PATH=/opt/java/openjdk/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'ENV JAVA_HOME=/opt/java/openjdk' --change 'CMD ["/bin/bash"]' "$tar" "$image" >/dev/null
echo "$image"
