# shellcheck shell=bash
# The JDK the run uses, and benchmarks.jar built (unless --skip-build) into a fresh results folder.

java_major() { "$1/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p' | sed 's/^1\.//'; }

java_setup() { # JAVA_HOME, or the JDK ./pigeonhole finds; JAVA is its java
  if [ -z "${JAVA_HOME:-}" ]; then
    JAVA_HOME=$(./pigeonhole jdk) || { echo "run.sh: no JDK 21 or newer found" >&2; exit 1; }
  fi
  export JAVA_HOME
  JAVA=$JAVA_HOME/bin/java
  # Maven still uses sun.misc.Unsafe; JDK 23+ warns on every run unless told this is known (as ./pigeonhole does).
  if [ "$(java_major "$JAVA_HOME")" -ge 23 ]; then
    export MAVEN_OPTS="${MAVEN_OPTS:-} --sun-misc-unsafe-memory-access=allow"
  fi
}

build_phase() {
  phase "build (JDK $(java_major "$JAVA_HOME") at $JAVA_HOME)"
  if [ $BUILD = 1 ]; then
    ./mvnw -q -B -DskipTests package -pl benchmarks -am
  else
    say "skipped (--skip-build)"
  fi
  [ -f "$JAR" ] || { echo "run.sh: $JAR is missing; build it or drop --skip-build" >&2; exit 1; }
  rm -rf "$OUT"
  mkdir -p "$OUT"
  say "jar: $JAR; raw results in $OUT"
}
