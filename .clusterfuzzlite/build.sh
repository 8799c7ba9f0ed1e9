#!/usr/bin/env bash
# Builds every fuzz target for the fuzzing engine and puts into $OUT what it runs: the binaries,
# each target's seed corpus (corpus/<target>/ as <target>_seed_corpus.zip) and, for the decode
# targets, the dictionary of protocol constants (fuzz/dictionaries/decode.dict as <target>.dict).
# Runs in the checkout (the image's WORKDIR); .ci/run runs it with the engine's variables mimicked.
set -euo pipefail
: "${OUT:?the engine sets OUT, where the built targets go}"
root="${STREAMSPEC_ROOT:-$PWD}"
targets=(decode_request decode_response coordinator_ops assignor topology)

cd "$root/fuzz"
# -O with debug assertions: fast enough to fuzz, and overflow checks still fire. cargo-fuzz builds
# with AddressSanitizer, the engine's one sanitizer for Rust; its CFLAGS and the like are for C.
cargo fuzz build -O --debug-assertions
built="$root/fuzz/target/x86_64-unknown-linux-gnu/release"
for target in "${targets[@]}"; do
  cp "$built/$target" "$OUT/"
  rm -f "$OUT/${target}_seed_corpus.zip"
  (cd "$root/corpus/$target" && zip -q -j "$OUT/${target}_seed_corpus.zip" ./*)
done
for target in decode_request decode_response; do
  cp "$root/fuzz/dictionaries/decode.dict" "$OUT/$target.dict"
done
