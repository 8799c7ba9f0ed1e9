//! Generated assignor groups and their text form, shared by the equality test against Kafka's own
//! `StickyTaskAssignor` (`tests/kafka_assignor.rs`) and the side-by-side benchmark
//! (`examples/assignor_bench.rs`): both hand the Java program in `coordinator/java/` the very
//! inputs the reference gets. The format is described at the top of `KafkaAssignorOracle.java`.

use std::fmt::Write as _;

use crate::assignor::{AssignmentInput, MemberSpec, Targets};
use crate::tasks::{TaskSets, Tasks};

/// "-" or comma-separated `subtopology:partition`.
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

/// Appends `input` as one case named `name` (no spaces) of the oracle's input.
pub fn describe(name: &str, input: &AssignmentInput, out: &mut String) {
    writeln!(out, "case {} {name}", input.num_standby_replicas).unwrap();
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

/// `targets` for the members of `input` as the oracle prints them.
pub fn answer(input: &AssignmentInput, targets: &Targets) -> String {
    let mut out = String::new();
    if targets.members() != input.members.len() {
        writeln!(out, "targets for {} members", targets.members()).unwrap();
    }
    for (position, member) in input.members.iter().enumerate() {
        let target = targets.of(position);
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

/// A group that has held no tasks yet.
#[derive(Debug, Clone)]
pub struct GroupShape {
    pub members: usize,
    pub members_per_process: usize,
    /// Tasks of subtopologies "0", "1", ...
    pub task_counts: Vec<i32>,
    /// The first `stateful` subtopologies have state.
    pub stateful: usize,
    pub standbys: i32,
}

impl GroupShape {
    pub fn fresh(&self) -> AssignmentInput {
        AssignmentInput {
            members: (0..self.members)
                .map(|index| MemberSpec {
                    member_id: format!("member-{index}").into(),
                    process_id: format!("process-{}", index / self.members_per_process.max(1))
                        .into(),
                    current: TaskSets::default(),
                    task_offsets: Vec::new(),
                })
                .collect(),
            task_counts: (0..)
                .map(|subtopology: usize| subtopology.to_string())
                .zip(self.task_counts.iter().copied())
                .collect(),
            stateful: (0..self.stateful.min(self.task_counts.len()))
                .map(|subtopology| subtopology.to_string())
                .collect(),
            num_standby_replicas: self.standbys,
        }
    }
}

/// The group of `input` once it holds `targets`, every member reporting a changelog offset for
/// each standby it holds, after every seventh member left and a newcomer on a process of its own
/// joined: what a sticky assignor meets after a change.
pub fn after_change(input: &AssignmentInput, targets: &Targets) -> AssignmentInput {
    let mut next = input.clone();
    next.members = input
        .members
        .iter()
        .enumerate()
        .filter(|(index, _)| index % 7 != 3)
        .map(|(index, member)| {
            let current = targets.of(index);
            let task_offsets = current
                .standby
                .iter()
                .flat_map(|(subtopology, partitions)| {
                    partitions.iter().map(move |&partition| {
                        let offset = (partition as i64 * 31 + index as i64 * 17) % 1_000;
                        (subtopology.clone(), partition, offset)
                    })
                })
                .collect();
            MemberSpec {
                current,
                task_offsets,
                ..member.clone()
            }
        })
        .collect();
    next.members.push(MemberSpec {
        member_id: "newcomer".into(),
        process_id: "process-newcomer".into(),
        current: TaskSets::default(),
        task_offsets: Vec::new(),
    });
    next
}

/// The side-by-side benchmark's grid: 10, 100 and 1,000 members, two to a process, over 100,
/// 1,000 and 10,000 tasks of 10 stateful subtopologies, with 0 and 1 standby replica, from
/// scratch (18 cases); and six of them again after a change (`after_change`), named with
/// `_sticky`. `assign` gives the targets the changed groups start from.
pub fn bench_grid(assign: impl Fn(&AssignmentInput) -> Targets) -> Vec<(String, AssignmentInput)> {
    let mut grid = Vec::new();
    for members in [10, 100, 1_000] {
        for tasks in [100, 1_000, 10_000] {
            for standbys in [0, 1] {
                let shape = GroupShape {
                    members,
                    members_per_process: 2,
                    task_counts: vec![tasks / 10; 10],
                    stateful: 10,
                    standbys,
                };
                grid.push((format!("{members}m_{tasks}t_{standbys}s"), shape.fresh()));
            }
        }
    }
    let sticky: Vec<(String, AssignmentInput)> = grid
        .iter()
        .filter(|(name, _)| name.ends_with("_1s") && !name.contains("_100t"))
        .map(|(name, fresh)| {
            (
                format!("{name}_sticky"),
                after_change(fresh, &assign(fresh)),
            )
        })
        .collect();
    grid.extend(sticky);
    grid
}
