#!/usr/bin/env bash
# Mutation testing of the reference coordinator (coordinator/src) with cargo-mutants, in two tiers
# so that a full run fits a machine: every mutant first meets the coordinator's own tests (fast to
# build: only the coordinator is rebuilt); the mutants that survive meet the whole budget, adding
# the harness's unit tests (a short campaign among them) and the strict embedded catalogue
# (tests/cli.rs). Equivalent mutants are excluded in .cargo/mutants.toml, each with its reason.
#
#   scripts/mutants.sh                  # everything (hours on two cores)
#   scripts/mutants.sh --shard 3/100    # one sampled shard; any cargo-mutants option passes on
#
# Results: mutants.out/ (caught.txt, missed.txt, timeout.txt, unviable.txt). Exit 0 when no
# viable mutant is missed, 2 when some are (cargo-mutants' own codes otherwise).
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v cargo-mutants >/dev/null; then
  echo "cargo-mutants is not installed: cargo install cargo-mutants --locked" >&2
  exit 2
fi
# Debug info only slows the many builds down; mutants.out is the report.
export CARGO_PROFILE_DEV_DEBUG=0
common=(--package streamspec-coordinator --timeout 120 --no-shuffle "$@")

echo "== tier 1: the coordinator's own tests"
tier1=0
cargo mutants "${common[@]}" --test-workspace=false || tier1=$?
# 0: all caught; 2: some missed; 3: some timed out. Anything else is a failure of the run.
if [[ $tier1 -ne 0 && $tier1 -ne 2 && $tier1 -ne 3 ]]; then
  exit "$tier1"
fi
if [[ $tier1 -eq 0 ]]; then
  echo "every mutant caught by the coordinator's tests"
  exit 0
fi

echo "== tier 2: the survivors against the whole budget"
budget=(--lib --test=rules --test=model --test=initial_delay --test=cli)
# cargo-mutants tests its unmutated baseline with the mutated package's tests only, where the
# harness's targets do not exist: the baseline of this tier is run here, and skipped there.
cargo test --package streamspec-coordinator --package streamspec "${budget[@]}"
# --iterate tests again only what the previous run did not catch.
cargo mutants "${common[@]}" --iterate --baseline=skip \
  --test-package streamspec-coordinator,streamspec \
  "${budget[@]/#/--cargo-test-arg=}"
