#!/usr/bin/env bash
# The assignor half of the side-by-side benchmark: Apache Kafka's own StickyTaskAssignor (on the
# JVM, coordinator/java/.../AssignorBench.java) and the reference's sticky assignor
# (coordinator/examples/assignor_bench.rs), in one run, on identical inputs: the Rust side writes
# the grid of cases, the Java side reads it. Both measure the CPU time of the measuring thread the
# same way: per case a warm-up, then ROUNDS rounds of as many assignments as fill about ROUND_MS.
# The Rust side first checks that its targets equal Kafka's, case by case.
#
# Prints one line per case:
#   case=assign/<name> kafka_ns=<min> ours_ns=<min> ratio=<kafka/ours> kafka_median_ns=<n> ours_median_ns=<n>
# (CPU nanoseconds per assignment; the ratio from the minima over the rounds).
#
# Usage: scripts/bench/assignor.sh   (env: ROUNDS=15 ROUND_MS=20 WARMUP_MS=500, KAFKA_VERSION=4.4.0)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
ROUNDS="${ROUNDS:-15}"
ROUND_MS="${ROUND_MS:-20}"
WARMUP_MS="${WARMUP_MS:-500}"
JAVA_PROJECT="$ROOT/coordinator/java"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

echo "assignor: building ..." >&2
mvn -q -B -f "$JAVA_PROJECT/pom.xml" -Dkafka.version="${KAFKA_VERSION:-4.4.0}" \
  package dependency:build-classpath -Dmdep.outputFile=target/classpath.txt -DskipTests >&2
classpath="$JAVA_PROJECT/target/classes:$(cat "$JAVA_PROJECT/target/classpath.txt")"
# The bench profile, as `cargo bench` builds the other benchmarks (no whole-program optimisation).
(cd "$ROOT" && cargo build -q --profile bench -p streamspec-coordinator --example assignor_bench)
bench="$ROOT/target/release/examples/assignor_bench"

"$bench" cases >"$work/cases.txt"
echo "assignor: Kafka's StickyTaskAssignor on the JVM ..." >&2
java -cp "$classpath" dev.streamspec.oracle.AssignorBench \
  "$work/cases.txt" "$work/kafka-answers.txt" "$ROUNDS" "$ROUND_MS" "$WARMUP_MS" >"$work/kafka-times.txt"
echo "assignor: the reference's sticky assignor ..." >&2
"$bench" compare "$work/kafka-times.txt" "$work/kafka-answers.txt" "$ROUNDS" "$ROUND_MS" "$WARMUP_MS"
