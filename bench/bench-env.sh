# Sourced first by bench scripts: leaves the shell at the repository root (ROOT) with the JDK that scripts/jdk.sh
# finds (JAVA_HOME exported, JAVA its java).
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
. scripts/jdk.sh
pylon_find_jdk
export JAVA_HOME
JAVA="$PYLON_JAVA"
