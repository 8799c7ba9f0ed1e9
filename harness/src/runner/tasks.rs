//! The `tasks` step: properties of the tasks several members hold together (R41's assignment
//! properties: every task assigned once, no process running a task in two kinds), judged from
//! each member's latest answers or from a describe, so that a scenario needs no capture per
//! member to state them.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{json, Value};
use streamspec_protocol::kafka::streams_group_heartbeat_response::TaskIds;

use crate::scenario::{TaskKind, TaskUnion, TasksStep};

/// A task: its subtopology and partition.
pub(super) type Task = (String, i32);

/// What one member holds, as far as the scenario knows: its process and its tasks by kind.
#[derive(Debug, Clone, Default, PartialEq)]
pub(super) struct Holding {
    pub(super) process: Option<String>,
    pub(super) tasks: BTreeMap<TaskKind, BTreeSet<Task>>,
}

impl Holding {
    /// Takes the lists a heartbeat answer sends; a null list keeps the one before (spec 5.2:
    /// null means unchanged).
    pub(super) fn answered(
        &mut self,
        active: Option<&[TaskIds]>,
        standby: Option<&[TaskIds]>,
        warmup: Option<&[TaskIds]>,
    ) {
        for (kind, lists) in TaskKind::ALL.into_iter().zip([active, standby, warmup]) {
            if let Some(lists) = lists {
                let tasks = lists
                    .iter()
                    .flat_map(|list| {
                        list.partitions
                            .iter()
                            .map(|partition| (list.subtopology_id.clone(), *partition))
                    })
                    .collect();
                self.tasks.insert(kind, tasks);
            }
        }
    }

    fn of(&self, kind: TaskKind) -> impl Iterator<Item = &Task> {
        self.tasks.get(&kind).into_iter().flatten()
    }

    fn as_json(&self) -> Value {
        let tasks = |kind| Value::from(self.of(kind).map(task_name).collect::<Vec<_>>());
        json!({
            "processId": self.process,
            "activeTasks": tasks(TaskKind::Active),
            "standbyTasks": tasks(TaskKind::Standby),
            "warmupTasks": tasks(TaskKind::Warmup),
        })
    }
}

/// How a task reads in messages: `<subtopology>_<partition>`, as Kafka Streams names task ids.
fn task_name(task: &Task) -> String {
    format!("{}_{}", task.0, task.1)
}

fn task_names<'a>(tasks: impl IntoIterator<Item = &'a Task>) -> String {
    let names: Vec<String> = tasks.into_iter().map(task_name).collect();
    if names.is_empty() {
        "none".to_owned()
    } else {
        names.join(", ")
    }
}

/// The holdings of the members in the `describe` answer's first group, by member id, from each
/// member's `assignment`.
pub(super) fn holdings_in_describe(
    answer: &Value,
    members: &[String],
) -> Result<BTreeMap<String, Holding>, String> {
    let described = answer
        .pointer("/groups/0/members")
        .and_then(Value::as_array)
        .ok_or("the latest describe answer has no members of a group")?;
    members
        .iter()
        .map(|member| {
            let found = described
                .iter()
                .find(|item| item["memberId"].as_str() == Some(member))
                .ok_or_else(|| format!("member {member} is not in the latest describe answer"))?;
            let lists = |key: &str| -> Result<Vec<TaskIds>, String> {
                serde_json::from_value(found["assignment"][key].clone())
                    .map_err(|error| format!("member {member}'s assignment.{key}: {error}"))
            };
            let (active, standby, warmup) = (
                lists("activeTasks")?,
                lists("standbyTasks")?,
                lists("warmupTasks")?,
            );
            let mut holding = Holding {
                process: found["processId"].as_str().map(str::to_owned),
                ..Holding::default()
            };
            holding.answered(Some(&active), Some(&standby), Some(&warmup));
            Ok((member.clone(), holding))
        })
        .collect()
}

/// Every task of `topology` (the request's JSON form, references resolved): one per partition
/// of a subtopology's source topics (the most partitions among them), with `partitions` the
/// topics that exist now. A subtopology that reads a topic by regex or a repartition topic has
/// tasks the scenario cannot count, and one that reads a missing topic has none assigned: the
/// scenario lists the tasks instead.
pub(super) fn every_task(
    topology: &Value,
    partitions: &BTreeMap<String, i32>,
) -> Result<BTreeSet<Task>, String> {
    let subtopologies = topology["subtopologies"].as_array().map_or(&[][..], |s| s);
    let mut tasks = BTreeSet::new();
    for subtopology in subtopologies {
        let id = subtopology["subtopologyId"].as_str().unwrap_or_default();
        let counts_elsewhere = ["sourceTopicRegex", "repartitionSourceTopics"]
            .into_iter()
            .find(|key| {
                subtopology[*key]
                    .as_array()
                    .is_some_and(|list| !list.is_empty())
            });
        if let Some(key) = counts_elsewhere {
            return Err(format!(
                "union \"all\": subtopology {id} has {key}, whose tasks the scenario cannot \
                 count; list the tasks instead"
            ));
        }
        let mut count = 0;
        for topic in subtopology["sourceTopics"].as_array().into_iter().flatten() {
            let name = topic.as_str().unwrap_or_default();
            let partitions = partitions.get(name).ok_or_else(|| {
                format!(
                    "union \"all\": subtopology {id} reads {name}, which is no topic the \
                     scenario has made; list the tasks instead"
                )
            })?;
            count = count.max(*partitions);
        }
        tasks.extend((0..count).map(|partition| (id.to_owned(), partition)));
    }
    Ok(tasks)
}

/// Judges `check` on the `holdings` of its members (in `check.members`' order); `every` is
/// the topology's every task, for `"union": "all"`. The message names the task and the members.
pub(super) fn judge(
    check: &TasksStep,
    holdings: &BTreeMap<String, Holding>,
    every: Option<&BTreeSet<Task>>,
) -> Result<(), String> {
    let kind = check.kind;
    let members = check.members.join(", ");
    let held = |member: &String| holdings.get(member).into_iter().flat_map(|h| h.of(kind));
    if check.disjoint {
        let mut holder: BTreeMap<&Task, &String> = BTreeMap::new();
        for member in &check.members {
            for task in held(member) {
                if let Some(first) = holder.insert(task, member) {
                    return Err(format!(
                        "{kind} task {} is held by both {first} and {member}",
                        task_name(task)
                    ));
                }
            }
        }
    }
    if check.disjoint_per_process {
        // Per process, the first kind and member each task was seen in.
        let mut seen: BTreeMap<(&str, &Task), (TaskKind, &String)> = BTreeMap::new();
        for member in &check.members {
            let Some(holding) = holdings.get(member) else {
                continue;
            };
            let process = holding.process.as_deref().unwrap_or("(none)");
            for kind in TaskKind::ALL {
                for task in holding.of(kind) {
                    match seen.get(&(process, task)) {
                        Some((first_kind, first)) if *first_kind != kind => {
                            return Err(format!(
                                "process {process} holds task {} both as {first_kind} ({first}) \
                                 and as {kind} ({member})",
                                task_name(task)
                            ))
                        }
                        Some(_) => {}
                        None => {
                            seen.insert((process, task), (kind, member));
                        }
                    }
                }
            }
        }
    }
    let together: BTreeSet<&Task> = check.members.iter().flat_map(held).collect();
    if let Some(union) = &check.union {
        let expected: BTreeSet<Task> = match union {
            TaskUnion::All => every.cloned().unwrap_or_default(),
            TaskUnion::Tasks(lists) => lists
                .iter()
                .flat_map(|list| {
                    list.partitions
                        .iter()
                        .map(|partition| (list.subtopology_id.clone(), *partition))
                })
                .collect(),
        };
        let missing: Vec<&Task> = expected
            .iter()
            .filter(|task| !together.contains(task))
            .collect();
        let extra: Vec<&Task> = together
            .iter()
            .copied()
            .filter(|task| !expected.contains(*task))
            .collect();
        if !missing.is_empty() || !extra.is_empty() {
            let wanted = match union {
                TaskUnion::All => "every task of the topology",
                TaskUnion::Tasks(_) => "the tasks union lists",
            };
            let mut message = format!(
                "the {kind} tasks of {members} together are {}, not {wanted} ({})",
                task_names(together.iter().copied()),
                task_names(&expected)
            );
            if !missing.is_empty() {
                message.push_str(&format!(": missing {}", task_names(missing)));
            }
            if !extra.is_empty() {
                message.push_str(&format!(": not expected {}", task_names(extra)));
            }
            return Err(message);
        }
    }
    if let Some(count) = check.count {
        if together.len() != count {
            return Err(format!(
                "{members} hold {} {kind} tasks ({}), count expects {count}",
                together.len(),
                task_names(together.iter().copied())
            ));
        }
    }
    Ok(())
}

/// The holdings as JSON, member by member, for the report's "found" beside the step.
pub(super) fn holdings_json(holdings: &BTreeMap<String, Holding>) -> Value {
    holdings
        .iter()
        .map(|(member, holding)| (member.clone(), holding.as_json()))
        .collect::<serde_json::Map<_, _>>()
        .into()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(json: Value) -> TasksStep {
        serde_json::from_value(json).unwrap()
    }

    fn holding(process: &str, active: &[i32], standby: &[i32]) -> Holding {
        let list = |partitions: &[i32]| {
            vec![TaskIds::default()
                .with_subtopology_id("0")
                .with_partitions(partitions.to_vec())]
        };
        let mut holding = Holding {
            process: Some(process.to_owned()),
            ..Holding::default()
        };
        holding.answered(Some(&list(active)), Some(&list(standby)), Some(&[]));
        holding
    }

    fn holdings(entries: &[(&str, Holding)]) -> BTreeMap<String, Holding> {
        entries
            .iter()
            .map(|(member, holding)| ((*member).to_owned(), holding.clone()))
            .collect()
    }

    fn every(partitions: i32) -> BTreeSet<Task> {
        (0..partitions).map(|p| ("0".to_owned(), p)).collect()
    }

    #[test]
    fn union_all_passes_when_the_members_hold_every_task_and_names_what_is_missing() {
        let union = check(json!({"members": ["a", "b"], "union": "all"}));
        let split = holdings(&[
            ("a", holding("p-a", &[0], &[])),
            ("b", holding("p-b", &[1, 2], &[])),
        ]);
        assert_eq!(judge(&union, &split, Some(&every(3))), Ok(()));
        let short = holdings(&[
            ("a", holding("p-a", &[0], &[])),
            ("b", holding("p-b", &[1], &[])),
        ]);
        assert_eq!(
            judge(&union, &short, Some(&every(3))),
            Err(
                "the active tasks of a, b together are 0_0, 0_1, not every task of the topology \
                 (0_0, 0_1, 0_2): missing 0_2"
                    .to_owned()
            )
        );
        let listed = check(json!({"members": ["a"], "kind": "standby",
            "union": [{"subtopologyId": "0", "partitions": [1]}]}));
        let one = holdings(&[("a", holding("p-a", &[0], &[2]))]);
        assert_eq!(
            judge(&listed, &one, None),
            Err(
                "the standby tasks of a together are 0_2, not the tasks union lists (0_1): \
                 missing 0_1: not expected 0_2"
                    .to_owned()
            )
        );
    }

    #[test]
    fn disjoint_names_the_task_and_both_members() {
        let disjoint = check(json!({"members": ["a", "b"], "disjoint": true}));
        let apart = holdings(&[
            ("a", holding("p-a", &[0], &[1])),
            ("b", holding("p-b", &[1], &[0])),
        ]);
        assert_eq!(judge(&disjoint, &apart, None), Ok(()));
        let twice = holdings(&[
            ("a", holding("p-a", &[0, 1], &[])),
            ("b", holding("p-b", &[1], &[])),
        ]);
        assert_eq!(
            judge(&disjoint, &twice, None),
            Err("active task 0_1 is held by both a and b".to_owned())
        );
    }

    #[test]
    fn disjoint_per_process_names_the_process_the_kinds_and_the_members() {
        let per_process = check(json!({"members": ["a", "b"], "disjoint_per_process": true}));
        let apart = holdings(&[
            ("a", holding("p", &[0], &[])),
            ("b", holding("p", &[1], &[])),
        ]);
        assert_eq!(judge(&per_process, &apart, None), Ok(()));
        // Other processes may hold a standby of a task another process runs.
        let elsewhere = holdings(&[
            ("a", holding("p-a", &[0], &[1])),
            ("b", holding("p-b", &[1], &[0])),
        ]);
        assert_eq!(judge(&per_process, &elsewhere, None), Ok(()));
        let same = holdings(&[
            ("a", holding("p", &[0], &[])),
            ("b", holding("p", &[1], &[0])),
        ]);
        assert_eq!(
            judge(&per_process, &same, None),
            Err("process p holds task 0_0 both as active (a) and as standby (b)".to_owned())
        );
    }

    #[test]
    fn count_counts_each_task_once() {
        let count = check(json!({"members": ["a", "b"], "kind": "standby", "count": 2}));
        let two = holdings(&[
            ("a", holding("p-a", &[], &[0])),
            ("b", holding("p-b", &[], &[1])),
        ]);
        assert_eq!(judge(&count, &two, None), Ok(()));
        let one = holdings(&[
            ("a", holding("p-a", &[], &[0])),
            ("b", holding("p-b", &[], &[0])),
        ]);
        assert_eq!(
            judge(&count, &one, None),
            Err("a, b hold 1 standby tasks (0_0), count expects 2".to_owned())
        );
    }

    #[test]
    fn a_null_list_keeps_the_tasks_before_it() {
        let mut held = holding("p-a", &[0, 1], &[]);
        held.answered(None, Some(&[]), None);
        assert_eq!(held, holding("p-a", &[0, 1], &[]));
    }

    #[test]
    fn every_task_counts_the_most_partitions_among_a_subtopologys_source_topics() {
        let partitions = BTreeMap::from([("x".to_owned(), 2), ("y".to_owned(), 3)]);
        let topology = json!({"subtopologies": [
            {"subtopologyId": "0", "sourceTopics": ["x", "y"]},
            {"subtopologyId": "1", "sourceTopics": ["x"]}
        ]});
        let tasks = every_task(&topology, &partitions).unwrap();
        assert_eq!(task_names(&tasks), "0_0, 0_1, 0_2, 1_0, 1_1");
        assert_eq!(
            every_task(
                &json!({"subtopologies": [{"subtopologyId": "0", "sourceTopics": ["z"]}]}),
                &partitions
            ),
            Err(
                "union \"all\": subtopology 0 reads z, which is no topic the scenario has made; \
                 list the tasks instead"
                    .to_owned()
            )
        );
        assert_eq!(
            every_task(
                &json!({"subtopologies": [{"subtopologyId": "0", "sourceTopicRegex": ["x.*"]}]}),
                &partitions
            ),
            Err(
                "union \"all\": subtopology 0 has sourceTopicRegex, whose tasks the scenario \
                 cannot count; list the tasks instead"
                    .to_owned()
            )
        );
    }

    #[test]
    fn a_describe_answer_gives_each_members_assignment() {
        let answer = json!({"groups": [{"members": [
            {"memberId": "a", "processId": "p-a", "assignment": {
                "activeTasks": [{"subtopologyId": "0", "partitions": [0]}],
                "standbyTasks": [{"subtopologyId": "0", "partitions": [1]}], "warmupTasks": []}}
        ]}]});
        let found = holdings_in_describe(&answer, &["a".to_owned()]).unwrap();
        assert_eq!(found["a"], holding("p-a", &[0], &[1]));
        assert_eq!(
            holdings_in_describe(&answer, &["b".to_owned()]),
            Err("member b is not in the latest describe answer".to_owned())
        );
    }
}
