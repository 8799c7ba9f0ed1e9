//! The reference's sticky assignor against Kafka 4.4.0's own: Kafka's `StickyTaskAssignor` class
//! (driven by the Java program in `coordinator/java/`) and ours get the same groups, members in
//! the same order, and must give the same targets, task for task: seeded random groups, large
//! groups fresh and after a change, and every case of the side-by-side benchmark's grid. And the
//! order members reach the assignor in: Kafka's `TimelineHashMap`, which holds a group's members,
//! against the reference's model of it.
//!
//! Needs Java 17 and Maven (the Kafka jars come from Maven Central on first use).
//! `STREAMSPEC_KAFKA_VERSION` picks another Kafka release; `STREAMSPEC_SEED` and `STREAMSPEC_CASES`
//! change the seeded groups.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use arbitrary::{Arbitrary, Unstructured};
use streamspec_coordinator::assignor::{AssignmentInput, StickyAssignor, TaskAssignor};
use streamspec_coordinator::assignor_cases::{
    after_change, answer, bench_grid, describe, GroupShape,
};
use streamspec_coordinator::fuzzing::GroupSpec;
use streamspec_coordinator::java_order::TimelineOrder;
use streamspec_protocol::fuzzing::{cases, root_seed, seeded_input};
use streamspec_protocol::java_oracle;

fn java_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("java")
}

/// Builds the oracle; returns the classpath to run it with.
fn oracle_classpath() -> String {
    let version = std::env::var("STREAMSPEC_KAFKA_VERSION").unwrap_or_else(|_| "4.4.0".to_owned());
    java_oracle::build(&java_dir(), &version)
}

/// Large groups, which grow Kafka's hash maps and give processes many members: fresh, then
/// after a change.
fn large_groups() -> Vec<(String, AssignmentInput)> {
    let mut groups = Vec::new();
    for (members, per_process, subtopologies, tasks, standbys) in [
        (17, 1, 3, 7, 1),
        (64, 2, 10, 20, 1),
        (150, 3, 10, 100, 2),
        (40, 8, 4, 33, 0),
        (300, 7, 5, 61, 3),
    ] {
        let shape = GroupShape {
            members,
            members_per_process: per_process,
            task_counts: (0..subtopologies).map(|s| tasks + s).collect(),
            stateful: subtopologies as usize / 2 + 1,
            standbys,
        };
        let fresh = shape.fresh();
        let next = after_change(&fresh, &StickyAssignor.assign(&fresh));
        let name = format!("large_{members}m");
        groups.push((name.clone(), fresh));
        groups.push((format!("{name}_sticky"), next));
    }
    groups
}

#[test]
fn our_targets_equal_kafkas_on_seeded_large_and_benchmarked_groups() {
    let mut inputs: Vec<(String, AssignmentInput)> = (0..u64::from(cases(3_000)))
        .filter_map(|case| {
            let data = seeded_input(root_seed(), case, 256);
            GroupSpec::arbitrary_take_rest(Unstructured::new(&data))
                .ok()
                .map(|GroupSpec(input)| (format!("seeded_{case}"), input))
        })
        .filter(|(_, input)| !input.members.is_empty())
        .collect();
    assert!(inputs.len() > 1_500, "only {} groups", inputs.len());
    inputs.extend(large_groups());
    inputs.extend(bench_grid(|input| StickyAssignor.assign(input)));
    let mut request = String::new();
    for (name, input) in &inputs {
        describe(name, input, &mut request);
    }
    let mut oracle = Command::new("java")
        .arg("-cp")
        .arg(oracle_classpath())
        .arg("dev.streamspec.oracle.KafkaAssignorOracle")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("Java must be installed to run the Kafka assignor oracle");
    oracle
        .stdin
        .take()
        .unwrap()
        .write_all(request.as_bytes())
        .unwrap();
    let output = oracle.wait_with_output().unwrap();
    assert!(
        output.status.success(),
        "the oracle failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let kafka = String::from_utf8(output.stdout).unwrap();
    let kafka_answers: Vec<&str> = kafka.split_inclusive("end\n").collect();
    assert_eq!(kafka_answers.len(), inputs.len());
    for ((name, input), kafka_answer) in inputs.iter().zip(kafka_answers) {
        let ours = answer(input, &StickyAssignor.assign(input));
        assert!(
            ours == kafka_answer,
            "group {name} differs from Kafka's assignor; replay: STREAMSPEC_SEED={} cargo test -p streamspec-coordinator --test kafka_assignor\n{input:?}\nours:\n{ours}\nKafka's:\n{kafka_answer}",
            root_seed()
        );
    }
}

/// Runs `program` of the oracle on `input`; its standard output.
fn run_oracle(program: &str, input: &str) -> String {
    let mut oracle = Command::new("java")
        .arg("-cp")
        .arg(oracle_classpath())
        .arg(program)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("Java must be installed to run the Kafka oracle");
    oracle
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let output = oracle.wait_with_output().unwrap();
    assert!(
        output.status.success(),
        "the oracle failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

#[test]
fn our_member_order_is_kafkas_timeline_hash_map_order() {
    // Member ids as the harness names them, many sharing a HashMap bucket ("m1-1" and "m2-0"),
    // put and removed at random: joins, heartbeats and departures of up to 24 members.
    let mut cases = vec![vec!["+m1-1".to_owned(), "+m2-0".to_owned()]];
    for case in 0..u64::from(cases_count()) {
        let data = seeded_input(root_seed(), case, 200);
        let operations = data
            .chunks_exact(2)
            .map(|pair| {
                let id = format!("m{}-{}", pair[0] % 6, pair[1] % 4);
                match pair[1] % 5 {
                    0 => format!("-{id}"),
                    _ => format!("+{id}"),
                }
            })
            .collect();
        cases.push(operations);
    }
    let input: String = cases.iter().map(|ops| ops.join(" ") + "\n").collect();
    let kafka = run_oracle("dev.streamspec.oracle.TimelineOrderOracle", &input);
    let kafka_orders: Vec<&str> = kafka.lines().collect();
    assert_eq!(kafka_orders.len(), cases.len());
    for (operations, kafka_order) in cases.iter().zip(kafka_orders) {
        let mut ours = TimelineOrder::default();
        for operation in operations {
            match operation.split_at(1) {
                ("+", key) => ours.put(key),
                (_, key) => ours.remove(key),
            }
        }
        assert_eq!(
            ours.keys().join(" "),
            kafka_order,
            "after {}; replay: STREAMSPEC_SEED={} cargo test -p streamspec-coordinator --test kafka_assignor",
            operations.join(" "),
            root_seed()
        );
    }
}

fn cases_count() -> u32 {
    cases(2_000)
}
