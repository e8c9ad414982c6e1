# Sourced by ./cellar, ./run-tests and .ci/run. Sets JAVA_HOME to a JDK whose feature
# version is at least CELLAR_MIN_JDK (25), looking at $JAVA_HOME first and then /usr/lib/jvm/*.
# Fails with a message naming every place it looked.

CELLAR_MIN_JDK=25

cellar_jdk_version() {
  # Prints the feature version of the JDK at $1 (e.g. 25), or nothing if it is not a JDK.
  [ -x "$1/bin/java" ] && [ -x "$1/bin/javac" ] || return 1
  "$1/bin/java" -XshowSettings:properties -version 2>&1 \
    | sed -n 's/^ *java\.specification\.version = \([0-9][0-9]*\).*/\1/p' | head -n 1
}

cellar_find_jdk() {
  local looked="" candidate version
  for candidate in "${JAVA_HOME:-}" /usr/lib/jvm/*; do
    [ -n "$candidate" ] || continue
    looked="$looked $candidate"
    version=$(cellar_jdk_version "$candidate") || continue
    if [ -n "$version" ] && [ "$version" -ge "$CELLAR_MIN_JDK" ]; then
      JAVA_HOME="$candidate"
      export JAVA_HOME
      # Maven itself still calls sun.misc.Unsafe; keep its own warnings out of our output.
      export MAVEN_OPTS="${MAVEN_OPTS:-} --sun-misc-unsafe-memory-access=allow"
      return 0
    fi
  done
  echo "cellar: no JDK >= $CELLAR_MIN_JDK found (looked at JAVA_HOME and /usr/lib/jvm/*:${looked:- nothing there})." >&2
  echo "cellar: install a JDK $CELLAR_MIN_JDK or newer and set JAVA_HOME to it." >&2
  return 1
}

cellar_require_maven() {
  if ! command -v mvn >/dev/null 2>&1; then
    echo "cellar: Maven ('mvn') is needed to build Cellar and was not found on PATH." >&2
    return 1
  fi
}
