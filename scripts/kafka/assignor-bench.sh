#!/usr/bin/env bash
# Side by side, in one run: Apache Kafka's StickyTaskAssignor (AssignorBench.java, on the JVM)
# and the reference's sticky assignor (criterion, `target_assignment` in
# coordinator/benches/coordinator.rs) on the same inputs. Prints a table with the ratio
# Kafka / reference. Usage: scripts/kafka/assignor-bench.sh [milliseconds per Java case]
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
KH="${STREAMSPEC_KAFKA_HOME:-/tmp/streamspec-kafka}"
JAVA="${JAVA:-${JAVA_HOME:+$JAVA_HOME/bin/}java}"
JAVAC="${JAVAC:-${JAVA_HOME:+$JAVA_HOME/bin/}javac}"
BUDGET_MS="${1:-2000}"

CP="$("$HERE/classpath.sh")"
CLASSES="$KH/assignor-bench-${KAFKA_VERSION:-4.4.0}"
rm -rf "$CLASSES" && mkdir -p "$CLASSES"
"$JAVAC" -nowarn -d "$CLASSES" -cp "$CP" "$HERE/AssignorBench.java"

java_out=$(mktemp)
rust_out=$(mktemp)
trap 'rm -f "$java_out" "$rust_out"' EXIT
echo "Kafka's StickyTaskAssignor on the JVM ($BUDGET_MS ms per case) ..." >&2
"$JAVA" -cp "$CLASSES:$CP" AssignorBench "$BUDGET_MS" >"$java_out"
echo "the reference's assignor with criterion ..." >&2
(cd "$ROOT" && cargo bench -q -p streamspec-coordinator --bench coordinator -- target_assignment) 2>/dev/null >"$rust_out"

# criterion prints "target_assignment/<case>  time: [low mid high]" (the case and the times may
# stand on two lines); the middle estimate is taken, in nanoseconds.
awk '
  function ns(value, unit) {
    if (unit == "ns") return value
    if (unit == "µs" || unit == "us") return value * 1e3
    if (unit == "ms") return value * 1e6
    return value * 1e9
  }
  FNR == NR { kafka[$1] = $2; order[++n] = $1; next }
  /target_assignment\// { split($1, parts, "/"); current = parts[2] }
  /time:/ && current != "" {
    for (i = 1; i <= NF; i++) if ($i == "time:") { rust[current] = ns($(i + 3), $(i + 4)); break }
    current = ""
  }
  END {
    printf "%-16s %14s %14s %8s\n", "case", "Kafka (us)", "reference (us)", "ratio"
    for (i = 1; i <= n; i++) {
      c = order[i]
      if (c in rust) printf "%-16s %14.1f %14.1f %7.1fx\n", c, kafka[c] / 1e3, rust[c] / 1e3, kafka[c] / rust[c]
      else printf "%-16s %14.1f %14s\n", c, kafka[c] / 1e3, "(missing)"
    }
  }
' "$java_out" "$rust_out"
