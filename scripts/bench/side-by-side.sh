#!/usr/bin/env bash
# Our codec and Apache Kafka's own generated message classes (kafka-clients, on the JVM) side by
# side, in one run, on identical inputs: the Rust side (protocol/benches/side_by_side.rs) writes
# the bytes of the benchmark messages (protocol/src/samples/large.rs), the Java side
# (scripts/bench/CodecBench.java) reads the same files and checks that it re-encodes them to the
# same bytes. Both measure the CPU time of the measuring thread the same way: per case a warm-up,
# then ROUNDS rounds of as many operations as fill about ROUND_MS. Kafka's decode reads the bytes
# into its message objects (the JVM's garbage collection runs on other threads and is not
# counted); encode allocates once, at the message's size, on both sides (Kafka counts first; ours
# writes a message of up to 128 bytes on the stack and copies it out). Our decode lines:
#   decode/<message>         the borrowed decoder (<Message>View::decode: validates the whole
#                            message, allocates nothing) PLUS reading every value once with the
#                            view's one-pass visit (each integer, each string as &str, each array
#                            length and item, folded into a checksum kept with black_box), so that
#                            ours does at least the work of building Kafka's objects;
#   decode_fields/<message>  the same, reading the values through the view's fields and array
#                            iteration, as user code does (each level of nesting passes over the
#                            bytes below it once more);
#   decode_owned/<message>   the owned decoder (<Message>::decode_exact), dropping the message.
# Every ours line is compared with Kafka's decode of the same bytes.
#
# Prints one line per case (CPU nanoseconds per operation; the ratio from the minima over the rounds):
#   case=<decode|decode_fields|decode_owned|encode>/<message> kafka_ns=<min> ours_ns=<min> ratio=<kafka/ours> kafka_median_ns=<n> ours_median_ns=<n>
#   case=kafka-protocol/decode/<message> kafka_ns=.. ours_ns=.. ...  (kafka_ns: the kafka-protocol
#       crate's decoder on a message of like shape, ConsumerGroupHeartbeat or CreateTopics; ours_ns:
#       our borrowed decode and one-pass read)
#   case=assign/<name> ...  (from scripts/bench/assignor.sh when it exists; it reads the same env names)
# then the smallest ratio of the decode/, decode_owned/ and encode/ lines and of the assignor's:
#   min_ratio codec_decode=<r> codec_decode_owned=<r> codec_encode=<r> assignor=<r|n/a>
#
# Usage: scripts/bench/side-by-side.sh   (env: ROUNDS=7 ROUND_MS=200 WARMUP_MS=2000, KAFKA_VERSION=4.4.0,
#        PARTS=codec to leave the assignor out, e.g. while working on the codec)
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
ROUNDS="${ROUNDS:-7}"
ROUND_MS="${ROUND_MS:-200}"
WARMUP_MS="${WARMUP_MS:-2000}"
PARTS="${PARTS:-all}"
JAVA="${JAVA:-${JAVA_HOME:+$JAVA_HOME/bin/}java}"
JAVAC="${JAVAC:-${JAVA_HOME:+$JAVA_HOME/bin/}javac}"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

echo "codec: building ..." >&2
classpath="$("$ROOT/scripts/kafka/classpath.sh")"
"$JAVAC" -nowarn -d "$work/classes" -cp "$classpath" "$HERE/CodecBench.java"
ours() { (cd "$ROOT" && cargo bench -q -p streamspec-protocol --bench side_by_side -- "$@"); }
ours write "$work/samples"

echo "codec: our codec ..." >&2
ours measure "$WARMUP_MS" "$ROUNDS" "$ROUND_MS" >"$work/ours.txt"
echo "codec: Kafka's message classes on the JVM ..." >&2
"$JAVA" -cp "$work/classes:$classpath" CodecBench "$work/samples" "$WARMUP_MS" "$ROUNDS" "$ROUND_MS" >"$work/kafka.txt"

if [ "$PARTS" != codec ] && [ -f "$HERE/assignor.sh" ]; then
  echo "assignor: scripts/bench/assignor.sh ..." >&2
  bash "$HERE/assignor.sh" >"$work/assignor.txt"
else
  : >"$work/assignor.txt"
fi

# Input lines: "measure name=<side>/<op>/<message> min_ns=<n> median_ns=<n>", side one of ours,
# kafka (Java) and kafka-protocol; then the assignor's finished case lines.
awk '
  function field(key,   i) {
    for (i = 1; i <= NF; i++) if (index($i, key "=") == 1) return substr($i, length(key) + 2)
    return ""
  }
  function line(name, theirs, ours) {
    printf "case=%s kafka_ns=%.1f ours_ns=%.1f ratio=%.2f kafka_median_ns=%.1f ours_median_ns=%.1f\n",
      name, min[theirs], min[ours], min[theirs] / min[ours], median[theirs], median[ours]
    return min[theirs] / min[ours]
  }
  function lowest(current, ratio) { return current == "" || ratio < current ? ratio : current }
  $1 == "measure" {
    name = field("name"); min[name] = field("min_ns"); median[name] = field("median_ns")
    split(name, parts, "/")
    if (parts[1] == "kafka") java[++n_java] = parts[2] "/" parts[3]
    if (parts[1] == "kafka-protocol") crate[++n_crate] = parts[2] "/" parts[3]
    next
  }
  /^case=assign\// { assign[++n_assign] = $0; assignor = lowest(assignor, field("ratio")); next }
  END {
    for (i = 1; i <= n_java; i++) {
      c = java[i]
      if (!(("ours/" c) in min)) { print "case=" c " ours_ns=missing"; continue }
      ratio = line(c, "kafka/" c, "ours/" c)
      if (c !~ /^decode\//) { encode = lowest(encode, ratio); continue }
      decode = lowest(decode, ratio)
      # The other ways of decoding on our side, against the same Kafka decode.
      message = substr(c, length("decode/") + 1)
      if (("ours/decode_fields/" message) in min)
        line("decode_fields/" message, "kafka/" c, "ours/decode_fields/" message)
      if (("ours/decode_owned/" message) in min)
        owned = lowest(owned, line("decode_owned/" message, "kafka/" c, "ours/decode_owned/" message))
    }
    for (i = 1; i <= n_crate; i++) line("kafka-protocol/" crate[i], "kafka-protocol/" crate[i], "ours/" crate[i])
    for (i = 1; i <= n_assign; i++) print assign[i]
    printf "min_ratio codec_decode=%s codec_decode_owned=%s codec_encode=%s assignor=%s\n",
      decode == "" ? "n/a" : sprintf("%.2f", decode),
      owned == "" ? "n/a" : sprintf("%.2f", owned),
      encode == "" ? "n/a" : sprintf("%.2f", encode),
      assignor == "" ? "n/a" : sprintf("%.2f", assignor)
  }
' "$work/ours.txt" "$work/kafka.txt" "$work/assignor.txt"
