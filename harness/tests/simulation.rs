//! The invariant oracle over generated operation sequences against the reference coordinator:
//! joins, heartbeats, leaves, crashes, time, metadata changes, shutdown requests and faults
//! (stale epochs, bogus tasks, lost responses). `STREAMSPEC_CASES` sets the number of sequences.

use proptest::prelude::*;
use proptest::test_runner::RngSeed;
use streamspec::simulation::{Operation, Simulation};

/// One root seed drives the whole run (`STREAMSPEC_SEED`); proptest's ChaCha generator derives
/// every sequence from it.
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
        .unwrap_or(256)
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: cases(),
        rng_seed: RngSeed::Fixed(root_seed()),
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn every_invariant_holds_over_generated_operations(bytes in proptest::collection::vec(any::<u8>(), 0..2048)) {
        let operations = Operation::sequence(&bytes);
        if let Err(violation) = Simulation::run(&operations) {
            panic!(
                "{violation}\noperations: {}\nreplay: STREAMSPEC_SEED={} STREAMSPEC_CASES={} cargo test -p streamspec --test simulation",
                serde_json::to_string(&operations).unwrap(),
                root_seed(),
                cases()
            );
        }
    }
}

/// The generator reaches the interesting states, so a weak generator shows up as a failure.
#[test]
fn sometimes_revocations_fences_and_rejoins_happen() {
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    let (mut revoked, mut fenced, mut unknown) = (false, false, false);
    for _ in 0..64 {
        let seed: Vec<u8> = (0..1024)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                state as u8
            })
            .collect();
        let operations = Operation::sequence(&seed);
        let simulation = Simulation::run(&operations).unwrap();
        for event in &simulation.history {
            fenced |= event.response.error_code == 110;
            unknown |= event.response.error_code == 25;
            // A reduced task list at an unchanged epoch is a revocation (R27).
            revoked |= event.request.member_epoch == event.response.member_epoch
                && event.response.active_tasks.as_ref().is_some_and(|tasks| {
                    let given: usize = tasks.iter().map(|t| t.partitions.len()).sum();
                    let owned: usize = event
                        .request
                        .active_tasks
                        .iter()
                        .flatten()
                        .map(|t| t.partitions.len())
                        .sum();
                    given < owned
                });
        }
    }
    assert!(
        revoked && fenced && unknown,
        "revoked {revoked}, fenced {fenced}, unknown member {unknown}"
    );
}

/// Every input in `corpus/coordinator_ops/` (seeds and what the fuzzer kept) replays cleanly.
#[test]
fn the_coordinator_ops_corpus_replays() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/coordinator_ops");
    let mut replayed = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let input = std::fs::read(entry.unwrap().path()).unwrap();
        streamspec::simulation::fuzz_coordinator_ops(&input);
        replayed += 1;
    }
    assert!(replayed >= 1);
    // The seed really drives the coordinator: joins, heartbeats, a leave, a crash, time, a resize.
    let seed = std::fs::read(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../corpus/coordinator_ops/seed-joins-leave-crash-resize"),
    )
    .unwrap();
    let operations = Operation::sequence(&seed);
    assert_eq!(operations.len(), 17);
    assert_eq!(operations[0], Operation::Join { member: 0 });
    assert_eq!(operations[12], Operation::Leave { member: 1 });
    assert!(matches!(operations[15], Operation::Advance { .. }));
    assert_eq!(operations[16], Operation::Resize { partitions: 7 });
    let simulation = Simulation::run(&operations).unwrap();
    assert!(simulation.history.len() > 12);
}
