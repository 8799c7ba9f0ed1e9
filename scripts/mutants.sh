#!/usr/bin/env bash
# Mutation testing of the reference coordinator (coordinator/src) with cargo-mutants, in three
# tiers so that a full run fits a machine. Every mutant first meets the coordinator's own tests
# except the one against Kafka's assignor class (only the coordinator is rebuilt, and that test
# starts a JVM: about 7 of a full run's 8 s); the survivors meet all of the coordinator's tests;
# the mutants still alive meet the whole budget, adding the harness's unit tests (a short campaign
# among them) and the strict embedded catalogue (tests/cli.rs). Equivalent mutants are excluded in
# .cargo/mutants.toml, each with its reason.
#
#   scripts/mutants.sh                  # everything (hours on two cores)
#   scripts/mutants.sh --shard 3/100    # one sampled shard; any cargo-mutants option passes on
#
# Results: mutants.out/ is the last tier's (cargo-mutants' caught.txt, missed.txt, timeout.txt,
# unviable.txt); each tier's is kept as mutants.tier1.out ... mutants.tier3.out, and the closing
# lines count them all. A timeout counts as caught (the mutant made a test hang) and goes no
# further. Exit 0 when no viable mutant is missed, 2 when some are, other codes when a tier fails.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v cargo-mutants >/dev/null; then
  echo "cargo-mutants is not installed: cargo install cargo-mutants --locked" >&2
  exit 2
fi
# Debug info only slows the many builds down; mutants.out is the report.
export CARGO_PROFILE_DEV_DEBUG=0
# Tiers 1 and 2 time a mutant's tests out after cargo-mutants' default: five times the
# unmutated tests' time, at least 20 s (a mutated loop that never ends costs that, not minutes).
common=(--package streamspec-coordinator --no-shuffle "$@")
# Later tiers test exactly the previous tier's survivors, named one by one, so the selection
# given here stays out of them: a --shard would pick its share of the remaining list (another
# set of mutants), and a name pattern (--re) would add every mutant it names to the survivors.
later=(--package streamspec-coordinator --no-shuffle)
skip_next=false
for arg in "$@"; do
  if $skip_next; then
    skip_next=false
  elif [[ $arg =~ ^(--shard|--re|-F|--regex|--examine-re|--examine-regex)$ ]]; then
    skip_next=true
  elif [[ ! $arg =~ ^(--shard|--re|-F|--regex|--examine-re|--examine-regex)= ]]; then
    later+=("$arg")
  fi
done

# The lines of a result file; 0 when there is none.
lines() {
  if [[ -f $1 ]]; then
    grep -c . "$1" || true
  else
    echo 0
  fi
}
summary() {
  local caught=0 timeout=0 unviable=0 tier
  for tier in 1 2 3; do
    [[ -d mutants.tier$tier.out ]] || continue
    local n
    n=$(lines "mutants.tier$tier.out/caught.txt")
    echo "tier $tier: $n caught"
    caught=$((caught + n))
    timeout=$((timeout + $(lines "mutants.tier$tier.out/timeout.txt")))
    unviable=$((unviable + $(lines "mutants.tier$tier.out/unviable.txt")))
  done
  echo "caught $caught, timed out $timeout, unviable $unviable, missed $(lines mutants.out/missed.txt)"
}

# Runs one tier and keeps its results; stops the script when nothing is left for the next one.
# cargo-mutants' exit codes: 0 all caught; 2 some missed; 3 some timed out (none missed, or
# missed ones too); anything else is a failure of the run.
run_tier() {
  local tier=$1 code=0
  shift
  rm -rf "mutants.tier$tier.out"
  cargo mutants "$@" || code=$?
  if [[ $code -ne 0 && $code -ne 2 && $code -ne 3 ]]; then
    exit "$code"
  fi
  cp -r mutants.out "mutants.tier$tier.out"
  if [[ $(lines mutants.out/missed.txt) -eq 0 ]]; then
    summary
    echo "no viable mutant missed"
    exit 0
  fi
}

# The previous tier's survivors, as exact name patterns (Rust regex syntax, metacharacters escaped).
survivors() {
  local name
  while IFS= read -r name; do
    printf -- '--re=^%s$\n' "$(sed -e 's/[][\.+*?(){}|^$#&~-]/\\&/g' <<<"$name")"
  done <mutants.out/missed.txt
}

rm -rf mutants.tier1.out mutants.tier2.out mutants.tier3.out
echo "== tier 1: the coordinator's own tests, but the one against Kafka's assignor class"
fast=(--lib)
for test in coordinator/tests/*.rs coordinator/tests/*/main.rs; do
  name=${test#coordinator/tests/}
  name=${name%/main.rs}
  name=${name%.rs}
  [[ $name == kafka_assignor ]] || fast+=("--test=$name")
done
run_tier 1 "${common[@]}" --test-workspace=false "${fast[@]/#/--cargo-test-arg=}"

echo "== tier 2: the survivors against all of the coordinator's tests"
mapfile -t names < <(survivors)
run_tier 2 "${later[@]}" "${names[@]}" --test-workspace=false

echo "== tier 3: the survivors against the whole budget"
budget=(--lib --test=rules --test=model --test=initial_delay --test=cli)
# cargo-mutants tests its unmutated baseline with the mutated package's tests only, where the
# harness's targets do not exist: the baseline of this tier is run here, and skipped there.
cargo test --package streamspec-coordinator --package streamspec "${budget[@]}"
mapfile -t names < <(survivors)
run_tier 3 "${later[@]}" "${names[@]}" --baseline=skip --timeout 300 \
  --test-package streamspec-coordinator,streamspec "${budget[@]/#/--cargo-test-arg=}"
summary
exit 2
