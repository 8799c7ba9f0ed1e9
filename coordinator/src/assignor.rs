//! Task assignors: given the members and the tasks of a ready topology, the target tasks of every
//! member (spec section 6).

use std::collections::{BTreeMap, BTreeSet};

use crate::tasks::{TaskSets, Tasks};

/// A member as the assignor sees it.
#[derive(Debug, Clone)]
pub struct MemberSpec {
    pub member_id: String,
    pub process_id: String,
    /// What the member holds now; stickiness keeps it where balance allows.
    pub current: TaskSets,
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
    fn assign(&self, input: &AssignmentInput) -> BTreeMap<String, TaskSets>;
}

/// Keeps each active task with its current owner while that owner is under its share, gives the
/// rest to the least loaded member, then places standbys of stateful tasks on other processes.
#[derive(Debug, Default, Clone, Copy)]
pub struct StickyAssignor;

fn add(tasks: &mut Tasks, subtopology: &str, partition: i32) {
    tasks
        .entry(subtopology.to_owned())
        .or_default()
        .insert(partition);
}

impl TaskAssignor for StickyAssignor {
    fn name(&self) -> &'static str {
        "sticky"
    }

    fn assign(&self, input: &AssignmentInput) -> BTreeMap<String, TaskSets> {
        let mut targets: BTreeMap<String, TaskSets> = input
            .members
            .iter()
            .map(|member| (member.member_id.clone(), TaskSets::default()))
            .collect();
        if input.members.is_empty() {
            return targets;
        }
        let tasks: Vec<(&String, i32)> = input
            .task_counts
            .iter()
            .flat_map(|(subtopology, count)| {
                (0..*count).map(move |partition| (subtopology, partition))
            })
            .collect();
        let quota = tasks.len().div_ceil(input.members.len());
        let mut current_owner: BTreeMap<(&str, i32), &str> = BTreeMap::new();
        for member in &input.members {
            for (subtopology, partitions) in &member.current.active {
                for partition in partitions {
                    current_owner.insert(
                        (subtopology.as_str(), *partition),
                        member.member_id.as_str(),
                    );
                }
            }
        }
        let mut load: BTreeMap<&str, usize> = input
            .members
            .iter()
            .map(|member| (member.member_id.as_str(), 0))
            .collect();
        let mut unassigned = Vec::new();
        // Stickiness: a current owner under its share keeps the task.
        for &(subtopology, partition) in &tasks {
            match current_owner.get(&(subtopology.as_str(), partition)) {
                Some(owner) if load[owner] < quota => {
                    add(
                        &mut targets.get_mut(*owner).unwrap().active,
                        subtopology,
                        partition,
                    );
                    *load.get_mut(owner).unwrap() += 1;
                }
                _ => unassigned.push((subtopology, partition)),
            }
        }
        // Balance: the least loaded member, the first in member-id order on a tie.
        let mut by_load: BTreeSet<(usize, &str)> = load
            .iter()
            .map(|(member, count)| (*count, *member))
            .collect();
        for (subtopology, partition) in unassigned {
            let (count, member) = by_load.pop_first().expect("at least one member");
            add(
                &mut targets.get_mut(member).unwrap().active,
                subtopology,
                partition,
            );
            by_load.insert((count + 1, member));
        }
        // Standbys of stateful tasks, each on a process that holds no copy of the task yet.
        let process_of: BTreeMap<&str, &str> = input
            .members
            .iter()
            .map(|member| (member.member_id.as_str(), member.process_id.as_str()))
            .collect();
        let mut active_process: BTreeMap<(&str, i32), &str> = BTreeMap::new();
        for (member, sets) in &targets {
            for (subtopology, partitions) in &sets.active {
                for partition in partitions {
                    active_process.insert(
                        (subtopology.as_str(), *partition),
                        process_of[member.as_str()],
                    );
                }
            }
        }
        let mut standby_load: BTreeSet<(usize, &str)> = input
            .members
            .iter()
            .map(|member| (0, member.member_id.as_str()))
            .collect();
        let mut standbys: BTreeMap<&str, Vec<(String, i32)>> = BTreeMap::new();
        for &(subtopology, partition) in tasks.iter().filter(|(s, _)| input.stateful.contains(*s)) {
            let mut holding = vec![active_process[&(subtopology.as_str(), partition)]];
            for _ in 0..input.num_standby_replicas {
                let candidate = standby_load
                    .iter()
                    .find(|(_, member)| !holding.contains(&process_of[member]))
                    .copied();
                let Some((count, member)) = candidate else {
                    break;
                };
                standby_load.remove(&(count, member));
                standby_load.insert((count + 1, member));
                holding.push(process_of[member]);
                standbys
                    .entry(member)
                    .or_default()
                    .push((subtopology.clone(), partition));
            }
        }
        for (member, tasks) in standbys {
            let target = targets.get_mut(member).unwrap();
            for (subtopology, partition) in tasks {
                add(&mut target.standby, &subtopology, partition);
            }
        }
        targets
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tasks::contains;

    fn member(id: &str, process: &str, active: &[(&str, i32)]) -> MemberSpec {
        let mut current = TaskSets::default();
        for (subtopology, partition) in active {
            add(&mut current.active, subtopology, *partition);
        }
        MemberSpec {
            member_id: id.into(),
            process_id: process.into(),
            current,
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
        let targets = StickyAssignor.assign(&input);
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
        let targets = StickyAssignor.assign(&input);
        let load =
            |members: &[&str]| -> usize { members.iter().map(|m| active(&targets, m).len()).sum() };
        assert_eq!((load(&["a", "b"]), load(&["c"]), load(&["d"])), (4, 2, 2));
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
        let targets = StickyAssignor.assign(&input);
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
