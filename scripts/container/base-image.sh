#!/usr/bin/env bash
# The base image the tests build Pylon's image on, made locally because no registry but Debian's is reachable:
# a Debian bookworm minbase (debootstrap) with a JRE made by jlink from the build's JDK at /opt/java/openjdk, the
# layout of eclipse-temurin images that production builds start from. Cached as tars under $PYLON_CACHE/containers
# (the debootstrap once per machine, minutes; the JRE once per JDK) and imported into podman's storage when missing.
# Prints the image name.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/env.sh"
. "$here/../jdk.sh"
pylon_container_env
pylon_find_jdk >/dev/null

jdk_version=$("$PYLON_JAVA" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.runtime\.version = //p' | tr '+' '_')
image="localhost/pylon-test-base:bookworm-jre${jdk_version}"
tar="$PYLON_CONTAINER_CACHE/pylon-test-base-bookworm-jre${jdk_version}.tar"

if podman image exists "$image"; then
  echo "$image"
  exit 0
fi
minbase="$PYLON_CONTAINER_CACHE/bookworm-minbase.tar"
if [ ! -f "$tar" ]; then
  [ "$(id -u)" = 0 ] || { echo "pylon container: debootstrap needs root to make the test base image" >&2; exit 1; }
  rootfs="$PYLON_CONTAINER_CACHE/rootfs.tmp"
  rm -rf "$rootfs" && mkdir -p "$rootfs"
  if [ ! -f "$minbase" ]; then
    # the slow step (minutes), kept on its own so that another JDK only redoes the JRE
    echo "pylon container: making the test base image (debootstrap bookworm + jlink JRE ${jdk_version}), once" >&2
    debootstrap --variant=minbase bookworm "$rootfs" http://deb.debian.org/debian >"$PYLON_CONTAINER_CACHE/debootstrap.log" 2>&1 \
      || { echo "pylon container: debootstrap failed (see $PYLON_CONTAINER_CACHE/debootstrap.log)" >&2; exit 1; }
    rm -rf "$rootfs"/var/cache/apt/* "$rootfs"/var/lib/apt/lists/* "$rootfs"/usr/share/doc/* "$rootfs"/usr/share/man/* \
      "$rootfs"/usr/share/locale/*
    tar -C "$rootfs" -cf "$minbase.tmp" . && mv "$minbase.tmp" "$minbase"
  else
    tar -C "$rootfs" -xf "$minbase"
  fi
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
