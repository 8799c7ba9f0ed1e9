//! Task assignors: given the members and the tasks of a ready topology, the target tasks of every
//! member (spec section 6).

mod sticky;
mod task_index;

use std::collections::{BTreeMap, BTreeSet};

use crate::java_order::JavaString;
use crate::tasks::{TaskSets, Tasks};

/// A member as the assignor sees it. Its ids carry their Java hashes, which order Kafka's maps of
/// members and processes; the group computes them when the member joins or changes process.
#[derive(Debug, Clone)]
pub struct MemberSpec {
    pub member_id: JavaString,
    pub process_id: JavaString,
    /// What the member holds now; stickiness keeps it where balance allows.
    pub current: TaskSets,
    /// The changelog offsets the member last reported per task (v1 `TaskOffsets`): among
    /// previous standbys, the furthest along is preferred.
    pub task_offsets: Vec<(String, i32, i64)>,
}

/// Everything an assignment depends on.
#[derive(Debug, Clone)]
pub struct AssignmentInput {
    pub members: Vec<MemberSpec>,
    /// Tasks per subtopology.
    pub task_counts: BTreeMap<String, i32>,
    /// Subtopologies with state (changelog topics): only these get standbys.
    pub stateful: BTreeSet<String>,
    pub num_standby_replicas: i32,
}

/// Computes target assignments; deterministic for a given input.
pub trait TaskAssignor {
    fn name(&self) -> &'static str;
    fn assign(&self, input: &AssignmentInput) -> Targets;
}

/// The target tasks of every member of an input, by the member's place in `input.members`: the
/// assignor's answer, built once, tasks as dense indices into the topology's subtopologies
/// (ids shared, not copied per member). A member's `TaskSets` are made when asked for.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Targets {
    /// Subtopology ids in id order, each with its first task: task `first + p` is its
    /// partition `p`.
    subtopologies: Vec<(String, u32)>,
    /// Member `m`'s actives are `tasks[starts[2m]..starts[2m + 1]]`, its standbys
    /// `tasks[starts[2m + 1]..starts[2m + 2]]`, each ascending.
    starts: Vec<u32>,
    tasks: Vec<u32>,
}

impl Targets {
    fn new(subtopologies: Vec<(String, u32)>, starts: Vec<u32>, tasks: Vec<u32>) -> Self {
        Targets {
            subtopologies,
            starts,
            tasks,
        }
    }

    /// How many members the targets are for.
    pub fn members(&self) -> usize {
        self.starts.len().saturating_sub(1) / 2
    }

    /// The targets of the member at `position` in the input; empty past its end.
    pub fn of(&self, position: usize) -> TaskSets {
        if position >= self.members() {
            return TaskSets::default();
        }
        TaskSets {
            active: self.list(2 * position),
            standby: self.list(2 * position + 1),
            warmup: Tasks::new(),
        }
    }

    /// The targets by member id (a later member of the input wins over an earlier one with the
    /// same id).
    pub fn by_member_id(&self, input: &AssignmentInput) -> BTreeMap<String, TaskSets> {
        input
            .members
            .iter()
            .enumerate()
            .map(|(position, member)| (member.member_id.to_string(), self.of(position)))
            .collect()
    }

    fn list(&self, list: usize) -> Tasks {
        self.runs(list)
            .map(|run| (run.subtopology.to_owned(), run.partitions().collect()))
            .collect()
    }

    /// The actives of the member at `position` (empty past the input's end), one run per
    /// subtopology in id order: what a describe lists, without building a member's [`TaskSets`].
    pub fn active_runs(&self, position: usize) -> impl Iterator<Item = TaskRun<'_>> {
        self.runs_of(position, 0)
    }

    /// The standbys of the member at `position`, as [`Targets::active_runs`].
    pub fn standby_runs(&self, position: usize) -> impl Iterator<Item = TaskRun<'_>> {
        self.runs_of(position, 1)
    }

    fn runs_of(&self, position: usize, role: usize) -> impl Iterator<Item = TaskRun<'_>> {
        let member = Some(position).filter(|&position| position < self.members());
        member
            .into_iter()
            .flat_map(move |position| self.runs(2 * position + role))
    }

    fn runs(&self, list: usize) -> impl Iterator<Item = TaskRun<'_>> {
        let mut rest = &self.tasks[self.starts[list] as usize..self.starts[list + 1] as usize];
        let mut subtopology = 0;
        std::iter::from_fn(move || {
            let &first = rest.first()?;
            // The last subtopology starting at or before the task holds it (those without tasks
            // start where the next one does).
            while self
                .subtopologies
                .get(subtopology + 1)
                .is_some_and(|(_, start)| *start <= first)
            {
                subtopology += 1;
            }
            let (id, start) = &self.subtopologies[subtopology];
            let end = self
                .subtopologies
                .get(subtopology + 1)
                .map_or(u32::MAX, |(_, next)| *next);
            let (tasks, later) = rest.split_at(rest.partition_point(|&task| task < end));
            rest = later;
            Some(TaskRun {
                subtopology: id,
                first: *start,
                tasks,
            })
        })
    }
}

/// A member's target tasks of one subtopology and role, as [`Targets`] holds them.
#[derive(Debug, Clone, Copy)]
pub struct TaskRun<'a> {
    pub subtopology: &'a str,
    /// The subtopology's first task index.
    first: u32,
    /// Task indices, ascending.
    tasks: &'a [u32],
}

impl<'a> TaskRun<'a> {
    /// The partitions, ascending.
    pub fn partitions(self) -> impl ExactSizeIterator<Item = i32> + 'a {
        let first = self.first;
        self.tasks.iter().map(move |&task| (task - first) as i32)
    }
}

/// Kafka 4.4.0's sticky assignor, step for step (spec 6), ties included: where Kafka leaves
/// them to the iteration order of its hash maps and the sift order of its priority queues, this
/// does the same (`java_order`), so that both give the same targets for members in the same
/// order (checked against Kafka's own class in `tests/kafka_assignor.rs`).
/// 1. Actives stay with their previous owner, then go to the best previous standby, while the
///    member is under a quota that is recomputed as members fill up; the rest go to the least
///    loaded process (tasks per member) and its least loaded member.
/// 2. Standbys of stateful tasks stay with the previous active owner or the best previous
///    standby while under the quota of all tasks; the rest go to the least loaded process that
///    holds no copy of the task, without a quota, or are dropped when none is left.
///
/// Client tags play no part: Kafka 4.4.0's assignor reads none (scenario
/// R41-standby-placement-ignores-client-tags).
#[derive(Debug, Default, Clone, Copy)]
pub struct StickyAssignor;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tasks::contains;

    fn add(tasks: &mut Tasks, subtopology: &str, partition: i32) {
        tasks
            .entry(subtopology.to_owned())
            .or_default()
            .insert(partition);
    }

    fn member(id: &str, process: &str, active: &[(&str, i32)]) -> MemberSpec {
        let mut current = TaskSets::default();
        for (subtopology, partition) in active {
            add(&mut current.active, subtopology, *partition);
        }
        MemberSpec {
            member_id: id.into(),
            process_id: process.into(),
            current,
            task_offsets: Vec::new(),
        }
    }

    fn active(targets: &BTreeMap<String, TaskSets>, member: &str) -> Vec<(String, i32)> {
        targets[member]
            .active
            .iter()
            .flat_map(|(s, ps)| ps.iter().map(move |p| (s.clone(), *p)))
            .collect()
    }

    #[test]
    fn every_task_gets_one_active_owner_and_previous_owners_keep_what_balance_allows() {
        let input = AssignmentInput {
            members: vec![
                member("a", "p1", &[("0", 0), ("0", 1)]),
                member("b", "p2", &[]),
            ],
            task_counts: BTreeMap::from([("0".to_owned(), 2)]),
            stateful: BTreeSet::new(),
            num_standby_replicas: 0,
        };
        let targets = StickyAssignor.assign(&input).by_member_id(&input);
        assert_eq!(active(&targets, "a"), [("0".to_owned(), 0)]);
        assert_eq!(active(&targets, "b"), [("0".to_owned(), 1)]);
    }

    /// Spec 6: a process's capacity is its number of members, so a process running two members
    /// carries twice the tasks of one running a single member.
    #[test]
    fn processes_carry_tasks_in_proportion_to_their_members() {
        let input = AssignmentInput {
            members: vec![
                member("a", "p0", &[]),
                member("b", "p0", &[]),
                member("c", "p1", &[]),
                member("d", "p2", &[]),
            ],
            task_counts: BTreeMap::from([("0".to_owned(), 6), ("1".to_owned(), 2)]),
            stateful: BTreeSet::new(),
            num_standby_replicas: 0,
        };
        let targets = StickyAssignor.assign(&input).by_member_id(&input);
        let load =
            |members: &[&str]| -> usize { members.iter().map(|m| active(&targets, m).len()).sum() };
        assert_eq!((load(&["a", "b"]), load(&["c"]), load(&["d"])), (4, 2, 2));
    }

    /// A member's runs are its `TaskSets`, subtopology by subtopology, skipping subtopologies
    /// it has no task of; past the input's end there are none.
    #[test]
    fn runs_list_a_members_targets_as_its_task_sets_do() {
        let input = AssignmentInput {
            members: vec![member("a", "p1", &[]), member("b", "p2", &[])],
            task_counts: BTreeMap::from([
                ("0".to_owned(), 1),
                ("1".to_owned(), 4),
                ("2".to_owned(), 3),
            ]),
            stateful: BTreeSet::from(["1".to_owned()]),
            num_standby_replicas: 1,
        };
        let targets = StickyAssignor.assign(&input);
        let listed = |runs: &mut dyn Iterator<Item = TaskRun<'_>>| -> Vec<(String, Vec<i32>)> {
            runs.map(|run| (run.subtopology.to_owned(), run.partitions().collect()))
                .collect()
        };
        for position in 0..2 {
            let sets = targets.of(position);
            let as_lists = |tasks: &Tasks| -> Vec<(String, Vec<i32>)> {
                tasks
                    .iter()
                    .map(|(id, partitions)| (id.clone(), partitions.iter().copied().collect()))
                    .collect()
            };
            assert_eq!(
                listed(&mut targets.active_runs(position)),
                as_lists(&sets.active)
            );
            assert_eq!(
                listed(&mut targets.standby_runs(position)),
                as_lists(&sets.standby)
            );
        }
        let all: usize = (0..2)
            .flat_map(|position| targets.active_runs(position))
            .map(|run| run.partitions().len())
            .sum();
        assert_eq!(all, 8);
        let standbys: Vec<(String, Vec<i32>)> = (0..2)
            .flat_map(|position| listed(&mut targets.standby_runs(position)))
            .collect();
        assert_eq!(standbys.iter().map(|(_, p)| p.len()).sum::<usize>(), 4);
        assert!(standbys.iter().all(|(id, _)| id == "1"));
        assert_eq!(targets.active_runs(2).count(), 0);
        assert_eq!(targets.standby_runs(usize::MAX).count(), 0);
    }

    fn tasks_of(spec: &[(&str, &[i32])]) -> Tasks {
        spec.iter()
            .map(|(s, ps)| (s.to_string(), ps.iter().copied().collect()))
            .collect()
    }

    /// The quota shrinks once a member reaches it (19 tasks over 6 members: one member keeps
    /// 4, the others 3), so m1 gives up task 1_10 although it held it. Kafka 4.4.0's own
    /// StickyTaskAssignor, given the same members in the same order, answers exactly this.
    #[test]
    fn the_quota_shrinks_as_members_fill_up_as_in_kafka() {
        let previous: [(&str, &str, Tasks); 6] = [
            ("m0", "p0", tasks_of(&[("0", &[5]), ("1", &[1, 4, 7])])),
            ("m1", "p3", tasks_of(&[("0", &[2]), ("1", &[0, 2, 10])])),
            ("m2", "p0", tasks_of(&[("0", &[3, 6]), ("1", &[3])])),
            ("m3", "p3", tasks_of(&[("0", &[7]), ("1", &[5, 6])])),
            ("m4", "p2", tasks_of(&[("0", &[1, 4]), ("1", &[9])])),
            ("m5", "p3", tasks_of(&[("0", &[0]), ("1", &[8])])),
        ];
        let input = AssignmentInput {
            members: previous
                .iter()
                .map(|(id, process, active)| MemberSpec {
                    member_id: (*id).into(),
                    process_id: (*process).into(),
                    current: TaskSets {
                        active: active.clone(),
                        ..TaskSets::default()
                    },
                    task_offsets: Vec::new(),
                })
                .collect(),
            task_counts: BTreeMap::from([("0".to_owned(), 8), ("1".to_owned(), 11)]),
            stateful: BTreeSet::new(),
            num_standby_replicas: 0,
        };
        let targets = StickyAssignor.assign(&input).by_member_id(&input);
        let actives: Vec<(&str, Tasks)> = targets
            .iter()
            .map(|(member, sets)| (member.as_str(), sets.active.clone()))
            .collect();
        assert_eq!(
            actives,
            [
                ("m0", tasks_of(&[("0", &[5]), ("1", &[1, 4, 7])])),
                ("m1", tasks_of(&[("0", &[2]), ("1", &[0, 2])])),
                ("m2", tasks_of(&[("0", &[3, 6]), ("1", &[3])])),
                ("m3", tasks_of(&[("0", &[7]), ("1", &[5, 6])])),
                ("m4", tasks_of(&[("0", &[1, 4]), ("1", &[9])])),
                ("m5", tasks_of(&[("0", &[0]), ("1", &[8, 10])])),
            ]
        );
    }

    /// A standby stays with its previous holder while it is under the quota, even when another
    /// process has nothing (scenario R41-standby-placement-ignores-client-tags).
    #[test]
    fn standbys_stay_with_their_previous_holder() {
        let b = member("b", "pb", &[("0", 0)]);
        let mut c = member("c", "pc", &[]);
        c.current.standby = tasks_of(&[("0", &[0])]);
        let input = AssignmentInput {
            members: vec![member("a", "pa", &[]), b, c],
            task_counts: BTreeMap::from([("0".to_owned(), 1)]),
            stateful: BTreeSet::from(["0".to_owned()]),
            num_standby_replicas: 1,
        };
        let targets = StickyAssignor.assign(&input).by_member_id(&input);
        assert_eq!(targets["a"], TaskSets::default());
        assert_eq!(targets["b"].active, tasks_of(&[("0", &[0])]));
        assert_eq!(targets["c"].standby, tasks_of(&[("0", &[0])]));
    }

    /// Among previous standbys, the one with the furthest reported offset takes over an active
    /// task whose owner left.
    #[test]
    fn the_furthest_previous_standby_takes_over_an_active() {
        let standby_at = |id: &str, process: &str, offset: i64| {
            let mut spec = member(id, process, &[]);
            spec.current.standby = tasks_of(&[("0", &[0])]);
            spec.task_offsets = vec![("0".to_owned(), 0, offset)];
            spec
        };
        let input = AssignmentInput {
            members: vec![standby_at("a", "pa", 5), standby_at("b", "pb", 9)],
            task_counts: BTreeMap::from([("0".to_owned(), 1)]),
            stateful: BTreeSet::from(["0".to_owned()]),
            num_standby_replicas: 1,
        };
        let targets = StickyAssignor.assign(&input).by_member_id(&input);
        assert_eq!(targets["b"].active, tasks_of(&[("0", &[0])]));
        assert_eq!(targets["a"].standby, tasks_of(&[("0", &[0])]));
    }

    #[test]
    fn standbys_go_to_other_processes_only_for_stateful_subtopologies() {
        let input = AssignmentInput {
            members: vec![
                member("a", "p1", &[]),
                member("b", "p2", &[]),
                member("c", "p1", &[]),
            ],
            task_counts: BTreeMap::from([("0".to_owned(), 2), ("1".to_owned(), 1)]),
            stateful: BTreeSet::from(["0".to_owned()]),
            num_standby_replicas: 1,
        };
        let targets = StickyAssignor.assign(&input).by_member_id(&input);
        let process = |member: &str| if member == "b" { "p2" } else { "p1" };
        for partition in 0..2 {
            let active_owner: Vec<&String> = targets
                .iter()
                .filter(|(_, t)| contains(&t.active, "0", partition))
                .map(|(m, _)| m)
                .collect();
            let standby_owner: Vec<&String> = targets
                .iter()
                .filter(|(_, t)| contains(&t.standby, "0", partition))
                .map(|(m, _)| m)
                .collect();
            assert_eq!((active_owner.len(), standby_owner.len()), (1, 1));
            assert_ne!(process(active_owner[0]), process(standby_owner[0]));
        }
        assert!(targets.values().all(|t| !t.standby.contains_key("1")));
    }
}
