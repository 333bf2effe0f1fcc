# Finds a JDK >= 21 and exports JAVA_HOME and PYLON_JAVA. Sourced by ./pylon and .ci/run, so both pick the same JDK.
# Order: $JAVA_HOME, `java` on PATH, then /usr/lib/jvm/* and the macOS JDK folder, newest first.

pylon_java_major() {
  # prints the feature version of the java binary $1 (17, 21, 25...), or nothing. Reads the JDK's release file
  # (JAVA_VERSION="25.0.1") where there is one, which costs no JVM start; else asks the JVM itself.
  local bin home version
  bin=$(readlink -f "$1" 2>/dev/null || echo "$1")
  home=$(dirname "$(dirname "$bin")")
  if [ -f "$home/release" ]; then
    version=$(sed -n 's/^JAVA_VERSION="\{0,1\}\([0-9][0-9.]*\).*/\1/p' "$home/release" | head -n 1)
    case "$version" in
      1.*) version=${version#1.}; version=${version%%.*} ;;  # 1.8.0_392: feature version 8
      *) version=${version%%.*} ;;
    esac
    if [ -n "$version" ]; then
      echo "$version"
      return 0
    fi
  fi
  "$1" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = \([0-9][0-9]*\).*/\1/p' | head -n 1
}

pylon_find_jdk() {
  local candidates=() c major
  [ -n "${JAVA_HOME:-}" ] && candidates+=("$JAVA_HOME/bin/java")
  command -v java >/dev/null 2>&1 && candidates+=("$(command -v java)")
  # PYLON_JDK_DIRS (a glob list) replaces the standard JDK folders, e.g. to check what happens when none is found
  for c in $(ls -d ${PYLON_JDK_DIRS:-/usr/lib/jvm/*/ /Library/Java/JavaVirtualMachines/*/Contents/Home/} 2>/dev/null | sort -rV); do
    candidates+=("${c%/}/bin/java")
  done
  for c in "${candidates[@]}"; do
    [ -x "$c" ] || continue
    [ -x "$(dirname "$c")/javac" ] || continue
    major=$(pylon_java_major "$c")
    if [ -n "$major" ] && [ "$major" -ge 21 ]; then
      PYLON_JAVA=$(readlink -f "$c" 2>/dev/null || echo "$c")
      JAVA_HOME=$(dirname "$(dirname "$PYLON_JAVA")")
      export JAVA_HOME PYLON_JAVA
      return 0
    fi
  done
  cat >&2 <<'MSG'
pylon: no JDK 21 or newer was found (looked at $JAVA_HOME, java on PATH and /usr/lib/jvm).
Install one, for example:
  Debian 13, Ubuntu 24.04:  apt-get install openjdk-21-jdk
  elsewhere:                Temurin 21 or 25 from adoptium.net, unpacked under /usr/lib/jvm
  macOS:                    brew install openjdk@21
then run this again, or point JAVA_HOME at it.
MSG
  return 1
}
