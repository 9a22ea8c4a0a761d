# Finding a JDK for Pigeonhole, in one place: sourced (not run) by ./pigeonhole in the source tree
# and by bin/pigeonhole in a release. Plain POSIX sh, so that dash runs it as well as bash, and
# with its variables prefixed, since a sourced file shares the caller's.

PIGEONHOLE_MIN_JAVA=21

# $1 = a Java home; prints its major version (21, 25...), or nothing when it has no java.
pigeonhole_java_major() {
  [ -x "$1/bin/java" ] || return 0
  _ph_version=""
  if [ -f "$1/release" ]; then
    _ph_version=$(sed -n 's/^JAVA_VERSION="\([^"]*\)".*/\1/p' "$1/release")
  fi
  if [ -z "$_ph_version" ]; then
    _ph_version=$("$1/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p')
  fi
  _ph_version=${_ph_version#1.}
  echo "${_ph_version%%[.+-]*}"
}

# $1 = a Java home, $2 = the program it must hold (java to run, javac to build); prints $1 when it
# has that program and is PIGEONHOLE_MIN_JAVA or newer.
pigeonhole_java_fits() {
  [ -x "$1/bin/$2" ] || return 1
  _ph_major=$(pigeonhole_java_major "$1")
  case $_ph_major in
    '' | *[!0-9]*) return 1 ;;
  esac
  [ "$_ph_major" -ge "$PIGEONHOLE_MIN_JAVA" ] || return 1
  echo "$1"
}

# $1 = java or javac; prints the first fitting Java home of: $JAVA_HOME, the one of java on the
# PATH, then /usr/lib/jvm/*.
pigeonhole_find_jdk() {
  if [ -n "${JAVA_HOME:-}" ] && pigeonhole_java_fits "$JAVA_HOME" "$1"; then
    return 0
  fi
  if _ph_java=$(command -v java 2>/dev/null); then
    # Through the alternatives' symbolic links to the JDK's own bin/java.
    _ph_java=$(readlink -f "$_ph_java" 2>/dev/null || echo "$_ph_java")
    if pigeonhole_java_fits "$(dirname "$(dirname "$_ph_java")")" "$1"; then
      return 0
    fi
  fi
  for _ph_home in /usr/lib/jvm/*; do
    if pigeonhole_java_fits "$_ph_home" "$1"; then
      return 0
    fi
  done
  return 1
}

# $1 = java or javac; sets and exports JAVA_HOME to a fitting JDK, or says what to do and exits 1.
pigeonhole_use_jdk() {
  if ! _ph_home=$(pigeonhole_find_jdk "$1"); then
    echo "pigeonhole: no JDK $PIGEONHOLE_MIN_JAVA or newer found (looked at \$JAVA_HOME, java on the PATH and /usr/lib/jvm)." >&2
    echo "Install one (for example: apt-get install openjdk-$PIGEONHOLE_MIN_JAVA-jdk-headless) or set JAVA_HOME to it." >&2
    exit 1
  fi
  JAVA_HOME=$_ph_home
  export JAVA_HOME
}

# Prints the flags the server's JVM needs on the JDK at $JAVA_HOME. Lettuce's and Redisson's epoll
# transport loads Netty's native library and GLIDE its Rust core; JDK 24+ warns about that unless
# told it is expected. Netty and the protobuf inside GLIDE's jar still read memory through
# sun.misc.Unsafe, which JDK 24+ warns about on first use too.
pigeonhole_java_flags() {
  if [ "$(pigeonhole_java_major "$JAVA_HOME")" -ge 24 ]; then
    echo "--enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow"
  fi
}
