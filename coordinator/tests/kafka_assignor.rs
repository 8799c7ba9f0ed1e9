//! The reference's sticky assignor against Kafka 4.4.0's own: Kafka's `StickyTaskAssignor` class
//! (driven by the Java program in `coordinator/java/`) and ours get the same seeded groups, members
//! in the same order, and must give the same targets, task for task.
//!
//! Needs Java 17 and Maven (the Kafka jars come from Maven Central on first use).
//! `STREAMSPEC_KAFKA_VERSION` picks another Kafka release; `STREAMSPEC_SEED` and `STREAMSPEC_CASES`
//! change the groups.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use arbitrary::{Arbitrary, Unstructured};
use streamspec_coordinator::assignor::{AssignmentInput, MemberSpec, StickyAssignor, TaskAssignor};
use streamspec_coordinator::fuzzing::GroupSpec;
use streamspec_coordinator::tasks::{TaskSets, Tasks};
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

fn task_list(tasks: &Tasks) -> String {
    let listed: Vec<String> = tasks
        .iter()
        .flat_map(|(subtopology, partitions)| {
            partitions.iter().map(move |p| format!("{subtopology}:{p}"))
        })
        .collect();
    if listed.is_empty() {
        "-".to_owned()
    } else {
        listed.join(",")
    }
}

/// The oracle's input format (see KafkaAssignorOracle.java).
fn describe_case(input: &AssignmentInput, out: &mut String) {
    writeln!(out, "case {}", input.num_standby_replicas).unwrap();
    for (subtopology, count) in &input.task_counts {
        let stateful = u8::from(input.stateful.contains(subtopology));
        writeln!(out, "subtopology {subtopology} {count} {stateful}").unwrap();
    }
    for member in &input.members {
        let offsets: Vec<String> = member
            .task_offsets
            .iter()
            .map(|(s, p, offset)| format!("{s}:{p}:{offset}"))
            .collect();
        writeln!(
            out,
            "member {} {} {} {} {}",
            member.member_id,
            member.process_id,
            task_list(&member.current.active),
            task_list(&member.current.standby),
            if offsets.is_empty() {
                "-".to_owned()
            } else {
                offsets.join(",")
            }
        )
        .unwrap();
    }
    out.push_str("end\n");
}

/// The oracle's answer for one case, in its format.
fn our_answer(input: &AssignmentInput, targets: &BTreeMap<String, TaskSets>) -> String {
    let mut out = String::new();
    for member in &input.members {
        let target = &targets[&member.member_id];
        writeln!(
            out,
            "member {} {} {}",
            member.member_id,
            task_list(&target.active),
            task_list(&target.standby)
        )
        .unwrap();
    }
    out.push_str("end\n");
    out
}

/// Large groups, which grow Kafka's hash maps and give processes many members: fresh, then
/// again from their own targets with every seventh member gone and a newcomer.
fn large_groups() -> Vec<AssignmentInput> {
    let mut groups = Vec::new();
    for (members, per_process, subtopologies, tasks, standbys) in [
        (17, 1, 3, 7, 1),
        (64, 2, 10, 20, 1),
        (150, 3, 10, 100, 2),
        (40, 8, 4, 33, 0),
    ] {
        let fresh = AssignmentInput {
            members: (0..members)
                .map(|index| MemberSpec {
                    member_id: format!("member-{index}"),
                    process_id: format!("process-{}", index / per_process),
                    current: TaskSets::default(),
                    task_offsets: Vec::new(),
                })
                .collect(),
            task_counts: (0..subtopologies)
                .map(|s| (s.to_string(), tasks + s))
                .collect(),
            stateful: (0..subtopologies)
                .step_by(2)
                .map(|s| s.to_string())
                .collect(),
            num_standby_replicas: standbys,
        };
        let targets = StickyAssignor.assign(&fresh);
        let mut next = fresh.clone();
        next.members.retain(|member| {
            member
                .member_id
                .trim_start_matches("member-")
                .parse::<usize>()
                .unwrap()
                % 7
                != 3
        });
        for member in &mut next.members {
            member.current = targets[&member.member_id].clone();
        }
        next.members.push(MemberSpec {
            member_id: "newcomer".to_owned(),
            process_id: "process-new".to_owned(),
            current: TaskSets::default(),
            task_offsets: Vec::new(),
        });
        groups.push(fresh);
        groups.push(next);
    }
    groups
}

#[test]
fn our_targets_equal_kafkas_on_seeded_and_large_groups() {
    let mut inputs: Vec<AssignmentInput> = (0..u64::from(cases(1_000)))
        .filter_map(|case| {
            let data = seeded_input(root_seed(), case, 256);
            GroupSpec::arbitrary_take_rest(Unstructured::new(&data))
                .ok()
                .map(|GroupSpec(input)| input)
        })
        .filter(|input| !input.members.is_empty())
        .collect();
    assert!(inputs.len() > 500, "only {} groups", inputs.len());
    inputs.extend(large_groups());
    let mut request = String::new();
    for input in &inputs {
        describe_case(input, &mut request);
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
    let kafka_answers: Vec<String> = kafka.split_inclusive("end\n").map(str::to_owned).collect();
    assert_eq!(kafka_answers.len(), inputs.len());
    for (case, (input, kafka_answer)) in inputs.iter().zip(&kafka_answers).enumerate() {
        let ours = our_answer(input, &StickyAssignor.assign(input));
        assert_eq!(
            &ours, kafka_answer,
            "group {case} differs from Kafka's assignor (left: ours); replay: STREAMSPEC_SEED={} cargo test -p streamspec-coordinator --test kafka_assignor\n{input:?}",
            root_seed()
        );
    }
}
