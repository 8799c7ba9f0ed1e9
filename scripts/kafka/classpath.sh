#!/usr/bin/env bash
# Print the run-time classpath of Apache Kafka $KAFKA_VERSION (default 4.4.0), resolved once per
# version from Maven Central with pom.xml and cached under $STREAMSPEC_KAFKA_HOME. Used by
# start.sh.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
KAFKA_VERSION="${KAFKA_VERSION:-4.4.0}"
KH="${STREAMSPEC_KAFKA_HOME:-/tmp/streamspec-kafka}"
MVN="${MVN:-mvn}"

log() { echo "kafka/classpath.sh: $*" >&2; }
die() { log "ERROR: $*"; exit 1; }

mkdir -p "$KH"
CPF="$KH/classpath-$KAFKA_VERSION.txt"
cp_ok() {
  [ -s "$CPF" ] || return 1
  local IFS=:
  for j in $(cat "$CPF"); do [ -f "$j" ] || return 1; done
}
if ! cp_ok; then
  log "resolving org.apache.kafka:kafka_2.13:$KAFKA_VERSION with Maven ..."
  TMP_CPF="$CPF.tmp.$$"
  # shellcheck disable=SC2086
  if ! timeout "${KAFKA_MVN_TIMEOUT:-600}" "$MVN" -B -q -f "$HERE/pom.xml" -Dkafka.version="$KAFKA_VERSION" ${KAFKA_MVN_ARGS:-} \
        dependency:build-classpath -Dmdep.outputFile="$TMP_CPF" -Dmdep.includeScope=runtime \
        >"$KH/mvn-$KAFKA_VERSION.log" 2>&1; then
    tail -n 30 "$KH/mvn-$KAFKA_VERSION.log" >&2
    rm -f "$TMP_CPF"
    die "Maven could not resolve the broker classpath (log: $KH/mvn-$KAFKA_VERSION.log)"
  fi
  mv -f "$TMP_CPF" "$CPF"
  cp_ok || die "resolved classpath lists missing jars: $CPF"
fi
cat "$CPF"
