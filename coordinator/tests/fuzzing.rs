//! The `assignor` and `topology` fuzz targets in `cargo test`: their corpora replay, and inputs
//! drawn from a fixed seed (`STREAMSPEC_SEED`, `STREAMSPEC_CASES`) keep every guarantee.

use std::path::PathBuf;

use streamspec_coordinator::fuzzing;
use streamspec_protocol::fuzzing::{cases, root_seed, seeded_input};

/// Input `case` of the seeded stream.
fn input(case: u64, length: usize) -> Vec<u8> {
    seeded_input(root_seed(), case, length)
}

fn each_case(target: &str, run: fn(&[u8])) {
    for case in 0..u64::from(cases(2_000)) {
        let data = input(case, 256);
        if std::panic::catch_unwind(|| run(&data)).is_err() {
            panic!(
                "{target} failed on case {case}; replay: STREAMSPEC_SEED={} STREAMSPEC_CASES={} cargo test -p streamspec-coordinator --test fuzzing",
                root_seed(),
                case + 1
            );
        }
    }
}

#[test]
fn seeded_group_specs_keep_the_assignment_guarantees() {
    each_case("assignor", fuzzing::assignor);
}

#[test]
fn seeded_topologies_configure_consistently() {
    each_case("topology", fuzzing::topology);
}

/// The seeds of a target's corpus: inputs of the pinned generator under the default root seed,
/// so that they never change with `STREAMSPEC_SEED`.
fn expected_seeds() -> Vec<(String, Vec<u8>)> {
    (0..8)
        .map(|case| (format!("seed-{case}"), seeded_input(0x5eed, case, 256)))
        .collect()
}

#[test]
fn the_assignor_and_topology_corpora_are_current_and_replay() {
    let in_ci = std::env::var_os("CI").is_some();
    let mut stale = Vec::new();
    for (target, run) in [
        ("assignor", fuzzing::assignor as fn(&[u8])),
        ("topology", fuzzing::topology),
    ] {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../corpus")
            .join(target);
        std::fs::create_dir_all(&dir).unwrap();
        for (name, content) in expected_seeds() {
            let path = dir.join(&name);
            if std::fs::read(&path).ok().as_deref() != Some(&content[..]) {
                stale.push(format!("{target}/{name}"));
                if !in_ci {
                    std::fs::write(&path, &content).unwrap();
                }
            }
        }
        let mut replayed = 0;
        for entry in std::fs::read_dir(&dir).unwrap() {
            run(&std::fs::read(entry.unwrap().path()).unwrap());
            replayed += 1;
        }
        assert!(replayed >= expected_seeds().len());
    }
    assert!(
        !in_ci || stale.is_empty(),
        "corpus seeds are stale; run `cargo test -p streamspec-coordinator --test fuzzing` and commit: {stale:?}"
    );
}
