//! The invariant oracle over generated runs against the reference coordinator: topologies
//! (repartition chains, changelogs, copartition groups), standbys, shared processes, static
//! members and endpoints; joins, heartbeats, leaves, crashes, time, resizes, shutdown requests
//! and faults (stale epochs, bogus tasks, lost and duplicated heartbeats). `STREAMSPEC_CASES`
//! sets the number of runs, `STREAMSPEC_SEED` the root seed.

use std::path::PathBuf;

use proptest::prelude::*;
use proptest::test_runner::RngSeed;
use streamspec::campaign::Witnesses;
use streamspec::simulation::{self, run_bytes, run_in_process, RunInput};

/// One root seed drives the whole run (`STREAMSPEC_SEED`); proptest's ChaCha generator derives
/// every run from it.
fn root_seed() -> u64 {
    std::env::var("STREAMSPEC_SEED")
        .ok()
        .and_then(|seed| seed.parse().ok())
        .unwrap_or(0x5eed)
}

fn cases() -> u32 {
    std::env::var("STREAMSPEC_CASES")
        .ok()
        .and_then(|cases| cases.parse().ok())
        .unwrap_or(512)
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: cases(),
        rng_seed: RngSeed::Fixed(root_seed()),
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn every_invariant_holds_over_generated_runs(bytes in proptest::collection::vec(any::<u8>(), 0..1024)) {
        let input = RunInput::from_bytes(&bytes);
        let record = run_in_process(&input);
        if let Some(violation) = record.violation {
            panic!(
                "{violation}\n{}run: {}\nreplay: STREAMSPEC_SEED={} STREAMSPEC_CASES={} cargo test -p streamspec --test simulation",
                violation.slice(&record.history),
                serde_json::to_string(&input).unwrap(),
                root_seed(),
                cases()
            );
        }
    }
}

/// The generator reaches the interesting states, so a weak generator shows up as a failure.
#[test]
fn sometimes_every_witness_is_reached() {
    let mut witnesses = Witnesses::default();
    for run in 0..128 {
        let record = run_in_process(&RunInput::from_bytes(&run_bytes(0x2545_f491, run, 848)));
        assert!(record.violation.is_none(), "{:?}", record.violation);
        witnesses.observe(&record.history);
    }
    for (name, count) in witnesses.counts() {
        assert!(count > 0, "no run reached {name}: {witnesses:?}");
    }
}

fn corpus_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../corpus/coordinator_ops")
}

/// The seeds of `corpus/coordinator_ops/`: runs of the pinned campaign generator, fixed so they
/// never change with `STREAMSPEC_SEED`.
fn expected_seeds() -> Vec<(String, Vec<u8>)> {
    (0..8)
        .map(|run| (format!("seed-run-{run}"), run_bytes(0x5eed, run, 848)))
        .collect()
}

/// Every input in `corpus/coordinator_ops/` (seeds and what the fuzzer kept) replays cleanly.
#[test]
fn the_coordinator_ops_corpus_is_current_and_replays() {
    let in_ci = std::env::var_os("CI").is_some();
    std::fs::create_dir_all(corpus_dir()).unwrap();
    let mut stale = Vec::new();
    for (name, content) in expected_seeds() {
        let path = corpus_dir().join(&name);
        if std::fs::read(&path).ok().as_deref() != Some(&content[..]) {
            stale.push(name);
            if !in_ci {
                std::fs::write(&path, &content).unwrap();
            }
        }
    }
    assert!(
        !in_ci || stale.is_empty(),
        "corpus seeds are stale; run `cargo test -p streamspec --test simulation` and commit: {stale:?}"
    );
    let mut replayed = 0;
    for entry in std::fs::read_dir(corpus_dir()).unwrap() {
        simulation::fuzz_coordinator_ops(&std::fs::read(entry.unwrap().path()).unwrap());
        replayed += 1;
    }
    assert!(replayed >= expected_seeds().len());
    // The seeds really drive the coordinator: each sets up a group and exchanges heartbeats.
    for (_, content) in expected_seeds() {
        let input = RunInput::from_bytes(&content);
        assert!(input.operations.len() > 100);
        assert!(run_in_process(&input).history.len() > 10);
    }
}
