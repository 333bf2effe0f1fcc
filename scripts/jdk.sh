# Finds a JDK >= 21 and exports JAVA_HOME and PYLON_JAVA. Sourced by ./pylon and .ci/run, so both pick the same JDK.
# Order: $JAVA_HOME, `java` on PATH, then /usr/lib/jvm/* and the macOS JDK folder, newest first.

pylon_java_major() {
  # prints the feature version of the java binary $1 (17, 21, 25...), or nothing. Reads the JDK's release file
  # (JAVA_VERSION="25.0.1") where there is one, which costs no JVM start; else asks the JVM itself. Shell built-ins
  # where they do: this runs before every pod start.
  local bin=$1 home version line
  [ -L "$bin" ] && bin=$(readlink -f "$bin" 2>/dev/null || echo "$bin")
  home=${bin%/*}; home=${home%/*}
  if [ -f "$home/release" ]; then
    while IFS= read -r line; do
      case "$line" in
        JAVA_VERSION=*) version=${line#JAVA_VERSION=}; version=${version#\"}; break ;;
      esac
    done < "$home/release"
    case "${version:-}" in
      1.*) version=${version#1.}; version=${version%%[!0-9]*} ;;  # 1.8.0_392: feature version 8
      *) version=${version%%[!0-9]*} ;;
    esac
    if [ -n "$version" ]; then
      echo "$version"
      return 0
    fi
  fi
  "$1" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = \([0-9][0-9]*\).*/\1/p' | head -n 1
}

# pylon_use_jdk JAVA: exports PYLON_JAVA and JAVA_HOME when JAVA is a JDK (javac beside it) of version 21 or newer.
pylon_use_jdk() {
  local c=$1 major
  [ -x "$c" ] && [ -x "${c%/*}/javac" ] || return 1
  major=$(pylon_java_major "$c")
  [ -n "$major" ] && [ "$major" -ge 21 ] || return 1
  PYLON_JAVA=$c
  [ -L "$c" ] && PYLON_JAVA=$(readlink -f "$c" 2>/dev/null || echo "$c")
  JAVA_HOME=${PYLON_JAVA%/*}; JAVA_HOME=${JAVA_HOME%/*}
  export JAVA_HOME PYLON_JAVA
}

pylon_find_jdk() {
  local c
  # $JAVA_HOME and `java` on PATH first; the JDK folders are only listed when neither will do
  [ -n "${JAVA_HOME:-}" ] && pylon_use_jdk "$JAVA_HOME/bin/java" && return 0
  c=$(command -v java 2>/dev/null) && pylon_use_jdk "$c" && return 0
  # PYLON_JDK_DIRS (a glob list) replaces the standard JDK folders, e.g. to check what happens when none is found
  for c in $(ls -d ${PYLON_JDK_DIRS:-/usr/lib/jvm/*/ /Library/Java/JavaVirtualMachines/*/Contents/Home/} 2>/dev/null | sort -rV); do
    pylon_use_jdk "${c%/}/bin/java" && return 0
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
