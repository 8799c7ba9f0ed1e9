#!/usr/bin/env bash
# Print the run-time classpath of the Kafka Streams application in clients/streams-app: its
# dependencies resolved with Maven (kafka-streams 4.4.0 and a log4j2 binding) and its sources
# compiled with javac, both cached under $STREAMSPEC_APP_HOME keyed by the checksum of the pom and
# the sources, so a second call costs no Maven run.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
APP="$(cd "$HERE/../../clients/streams-app" && pwd)"
CACHE="${STREAMSPEC_APP_HOME:-/tmp/streamspec-streams-app}"
MVN="${MVN:-mvn}"
JAVAC="${JAVAC:-${JAVA_HOME:+$JAVA_HOME/bin/}javac}"

log() { echo "streams-app/build.sh: $*" >&2; }
die() { log "ERROR: $*"; exit 1; }

mkdir -p "$CACHE"
SUM=$(cd "$APP" && find pom.xml src -type f | LC_ALL=C sort | xargs cat | cksum | cut -d' ' -f1)
OUT="$CACHE/build-$SUM"
deps_ok() {
  [ -s "$OUT/deps.txt" ] || return 1
  local IFS=:
  for jar in $(cat "$OUT/deps.txt"); do [ -f "$jar" ] || return 1; done
}
if ! deps_ok || [ ! -f "$OUT/classes/dev/streamspec/app/WordCount.class" ]; then
  TMP="$OUT.tmp.$$"
  rm -rf "$TMP" && mkdir -p "$TMP/classes"
  trap 'rm -rf "$TMP"' EXIT
  log "resolving kafka-streams with Maven and compiling ..."
  if ! timeout "${APP_MVN_TIMEOUT:-600}" "$MVN" -B -q -f "$APP/pom.xml" dependency:build-classpath \
      -Dmdep.outputFile="$TMP/deps.txt" -Dmdep.includeScope=runtime >"$TMP/mvn.log" 2>&1; then
    tail -n 30 "$TMP/mvn.log" >&2
    die "Maven could not resolve the application's classpath"
  fi
  if ! "$JAVAC" --release 17 -Xlint:all -Werror -d "$TMP/classes" -cp "$(cat "$TMP/deps.txt")" \
      $(find "$APP/src/main/java" -name '*.java') >"$TMP/javac.log" 2>&1; then
    cat "$TMP/javac.log" >&2
    die "javac failed"
  fi
  cp -r "$APP/src/main/resources/." "$TMP/classes/"
  rm -rf "$OUT" && mv "$TMP" "$OUT"
  trap - EXIT
  deps_ok || die "the resolved classpath lists missing jars: $OUT/deps.txt"
fi
echo "$OUT/classes:$(cat "$OUT/deps.txt")"
