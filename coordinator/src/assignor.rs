//! Task assignors: given the members and the tasks of a ready topology, the target tasks of every
//! member (spec section 6).

use std::cmp::{Ordering, Reverse};
use std::collections::{BTreeMap, BTreeSet, HashMap};

use crate::java_order::{hash_map_order, Insertion, JavaHeap};
use crate::tasks::{contains, TaskSets, Tasks};

/// A member as the assignor sees it.
#[derive(Debug, Clone)]
pub struct MemberSpec {
    pub member_id: String,
    pub process_id: String,
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
    fn assign(&self, input: &AssignmentInput) -> BTreeMap<String, TaskSets>;
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

fn add(tasks: &mut Tasks, subtopology: &str, partition: i32) {
    tasks
        .entry(subtopology.to_owned())
        .or_default()
        .insert(partition);
}

type Task<'a> = (&'a str, i32);

/// A share that shrinks as members reach it: once a member holds `quota` tasks, the tasks left
/// are shared among the members left, rounded up.
struct Quota {
    total: usize,
    members_with_room: usize,
    quota: usize,
}

impl Quota {
    fn new(total: usize, members: usize) -> Self {
        Quota {
            total,
            members_with_room: members,
            quota: total.div_ceil(members),
        }
    }

    /// A member now holds `count` tasks.
    fn record(&mut self, count: usize) {
        if count == self.quota {
            self.members_with_room -= 1;
            self.total -= count;
            self.quota = match self.members_with_room {
                0 => 0,
                members => self.total.div_ceil(members),
            };
        }
    }
}

struct Process<'a> {
    /// Its members and how many tasks each holds, in the order Kafka's map of them iterates.
    members: Vec<(&'a str, usize)>,
    tasks: usize,
    holds: BTreeSet<Task<'a>>,
    /// Its members by load, kept as Kafka keeps it: built when first needed, dropped when a
    /// task goes to a named member.
    by_load: Option<JavaHeap>,
}

impl Process<'_> {
    /// Tasks per member, as Kafka computes it (a double).
    fn load(&self) -> f64 {
        self.tasks as f64 / self.members.len() as f64
    }
}

fn by_process_load<'p>(processes: &'p [Process<'_>]) -> impl Fn(usize, usize) -> Ordering + 'p {
    |a, b| processes[a].load().total_cmp(&processes[b].load())
}

fn by_member_count<'m>(members: &'m [(&str, usize)]) -> impl Fn(usize, usize) -> Ordering + 'm {
    |a, b| members[a].1.cmp(&members[b].1)
}

struct Assignment<'a> {
    targets: BTreeMap<&'a str, TaskSets>,
    /// In the order Kafka's map of processes iterates.
    processes: Vec<Process<'a>>,
    /// Where each member is: its process, and its place among the process's members.
    place: HashMap<&'a str, (usize, usize)>,
    active_quota: Quota,
    task_quota: Quota,
    previous_active: BTreeMap<Task<'a>, &'a str>,
    /// Per task, the members that held it as standby (furthest offset first), then those that
    /// only report an offset for it (furthest first); member order breaks ties.
    previous_standbys: BTreeMap<Task<'a>, Vec<&'a str>>,
}

impl<'a> Assignment<'a> {
    fn new(input: &'a AssignmentInput, tasks: usize, stateful_tasks: usize) -> Self {
        let members = input.members.len();
        let replicas = usize::try_from(input.num_standby_replicas).unwrap_or(0);
        // Processes in order of first appearance, each with its members in input order.
        let mut process_ids: Vec<&str> = Vec::new();
        let mut members_of: HashMap<&str, Vec<&str>> = HashMap::new();
        for member in &input.members {
            let of_process = members_of.entry(&member.process_id).or_default();
            if of_process.is_empty() {
                process_ids.push(&member.process_id);
            }
            of_process.push(&member.member_id);
        }
        // Kafka sizes its map of processes by the number of members and fills it with
        // computeIfAbsent; each process's map of members is a default one filled with put.
        let process_ids: Vec<&str> =
            hash_map_order(&process_ids, Some(members), Insertion::ComputeIfAbsent)
                .into_iter()
                .map(|index| process_ids[index])
                .collect();
        let mut place = HashMap::new();
        let processes = process_ids
            .iter()
            .enumerate()
            .map(|(process_index, process)| {
                let ids = &members_of[process];
                let members: Vec<(&str, usize)> = hash_map_order(ids, None, Insertion::Put)
                    .into_iter()
                    .map(|index| (ids[index], 0))
                    .collect();
                for (slot, (member, _)) in members.iter().enumerate() {
                    place.insert(*member, (process_index, slot));
                }
                Process {
                    members,
                    tasks: 0,
                    holds: BTreeSet::new(),
                    by_load: None,
                }
            })
            .collect();
        let mut previous_active = BTreeMap::new();
        let mut ranked: BTreeMap<Task, Vec<(bool, i64, usize)>> = BTreeMap::new();
        for (order, member) in input.members.iter().enumerate() {
            for (subtopology, partitions) in &member.current.active {
                for partition in partitions {
                    previous_active.insert(
                        (subtopology.as_str(), *partition),
                        member.member_id.as_str(),
                    );
                }
            }
            let offset = |task: Task| {
                member
                    .task_offsets
                    .iter()
                    .find(|(s, p, _)| (s.as_str(), *p) == task)
                    .map(|(_, _, offset)| *offset)
            };
            for (subtopology, partitions) in &member.current.standby {
                for partition in partitions {
                    let task = (subtopology.as_str(), *partition);
                    let rank = (true, offset(task).unwrap_or(0), order);
                    ranked.entry(task).or_default().push(rank);
                }
            }
            for (subtopology, partition, reported) in &member.task_offsets {
                let task = (subtopology.as_str(), *partition);
                if !contains(&member.current.standby, task.0, task.1) {
                    ranked
                        .entry(task)
                        .or_default()
                        .push((false, *reported, order));
                }
            }
        }
        let previous_standbys = ranked
            .into_iter()
            .map(|(task, mut ranks)| {
                ranks.sort_by(|a, b| (b.0, b.1).cmp(&(a.0, a.1)).then(a.2.cmp(&b.2)));
                let ranked = ranks
                    .into_iter()
                    .map(|(_, _, order)| input.members[order].member_id.as_str())
                    .collect();
                (task, ranked)
            })
            .collect();
        Assignment {
            targets: input
                .members
                .iter()
                .map(|m| (m.member_id.as_str(), TaskSets::default()))
                .collect(),
            processes,
            place,
            active_quota: Quota::new(tasks, members),
            task_quota: Quota::new(tasks + stateful_tasks * replicas, members),
            previous_active,
            previous_standbys,
        }
    }

    fn count(&self, member: &str) -> usize {
        let (process, slot) = self.place[member];
        self.processes[process].members[slot].1
    }

    fn process_of(&self, member: &str) -> &Process<'a> {
        &self.processes[self.place[member].0]
    }

    /// Gives `task` to the member at `slot` of `process`.
    fn give_at(&mut self, process: usize, slot: usize, task: Task<'a>, active: bool) {
        let state = &mut self.processes[process];
        let (member, count) = &mut state.members[slot];
        *count += 1;
        let count = *count;
        let sets = self.targets.get_mut(member).expect("a member of the group");
        add(
            if active {
                &mut sets.active
            } else {
                &mut sets.standby
            },
            task.0,
            task.1,
        );
        state.tasks += 1;
        state.holds.insert(task);
        self.task_quota.record(count);
        if active {
            self.active_quota.record(count);
        }
    }

    fn give(&mut self, member: &str, task: Task<'a>, active: bool) {
        let (process, slot) = self.place[member];
        self.processes[process].by_load = None;
        self.give_at(process, slot, task, active);
    }

    /// Gives `task` to the least loaded member of `process`.
    fn give_least_loaded(&mut self, process: usize, task: Task<'a>, active: bool) {
        let state = &mut self.processes[process];
        if state.members.len() == 1 {
            self.give_at(process, 0, task, active);
            return;
        }
        let mut heap = state.by_load.take().unwrap_or_else(|| {
            let mut heap = JavaHeap::default();
            for slot in 0..state.members.len() {
                heap.add(slot, by_member_count(&state.members));
            }
            heap
        });
        let slot = heap
            .poll(by_member_count(&state.members))
            .expect("a process has members");
        self.give_at(process, slot, task, active);
        let state = &mut self.processes[process];
        heap.add(slot, by_member_count(&state.members));
        state.by_load = Some(heap);
    }

    /// The first of `candidates`, replaced by a later one only if both its process and itself
    /// carry strictly less.
    fn best_previous(&self, candidates: impl Iterator<Item = &'a str>) -> Option<&'a str> {
        candidates.reduce(|best, candidate| {
            let lighter = self.process_of(candidate).load() < self.process_of(best).load();
            if lighter && self.count(candidate) < self.count(best) {
                candidate
            } else {
                best
            }
        })
    }

    /// Places one standby of `task` on the least loaded process that holds no copy of it,
    /// taking processes from `heap` as Kafka does (each one taken goes back after).
    fn place_standby(&mut self, heap: &mut JavaHeap, task: Task<'a>) -> bool {
        let Some(process) = heap.poll(by_process_load(&self.processes)) else {
            return false;
        };
        let placed = if !self.processes[process].holds.contains(&task) {
            self.give_least_loaded(process, task, false);
            true
        } else if !heap.is_empty() {
            self.place_standby(heap, task)
        } else {
            false
        };
        heap.add(process, by_process_load(&self.processes));
        placed
    }

    /// Every process, in Kafka's order, in a heap by load.
    fn processes_by_load(&self) -> JavaHeap {
        let mut heap = JavaHeap::default();
        for process in 0..self.processes.len() {
            heap.add(process, by_process_load(&self.processes));
        }
        heap
    }
}

impl TaskAssignor for StickyAssignor {
    fn name(&self) -> &'static str {
        "sticky"
    }

    fn assign(&self, input: &AssignmentInput) -> BTreeMap<String, TaskSets> {
        if input.members.is_empty() {
            return BTreeMap::new();
        }
        let mut tasks: Vec<Task> = input
            .task_counts
            .iter()
            .flat_map(|(subtopology, count)| {
                (0..*count).map(move |partition| (subtopology.as_str(), partition))
            })
            .collect();
        let stateful_tasks = tasks
            .iter()
            .filter(|(subtopology, _)| input.stateful.contains(*subtopology))
            .count();
        let mut state = Assignment::new(input, tasks.len(), stateful_tasks);

        // Actives: the previous owner, then the best previous standby, within the active quota.
        tasks.sort_by_key(|&(subtopology, partition)| (partition, subtopology));
        let mut unassigned = Vec::new();
        for task in tasks.iter().copied() {
            match state.previous_active.get(&task).copied() {
                Some(owner) if state.count(owner) < state.active_quota.quota => {
                    state.give(owner, task, true)
                }
                _ => unassigned.push(task),
            }
        }
        let mut rest = Vec::new();
        for task in unassigned {
            let candidates = state.previous_standbys.get(&task).into_iter().flatten();
            match state.best_previous(candidates.copied()) {
                Some(member) if state.count(member) < state.active_quota.quota => {
                    state.give(member, task, true)
                }
                _ => rest.push(task),
            }
        }
        rest.sort();
        let mut heap = state.processes_by_load();
        for task in rest {
            let process = heap
                .poll(by_process_load(&state.processes))
                .expect("at least one process");
            state.give_least_loaded(process, task, true);
            heap.add(process, by_process_load(&state.processes));
        }

        // Standbys of stateful tasks.
        let replicas = usize::try_from(input.num_standby_replicas).unwrap_or(0);
        if replicas > 0 {
            let mut stateful: Vec<Task> = tasks
                .into_iter()
                .filter(|(subtopology, _)| input.stateful.contains(*subtopology))
                .collect();
            stateful.sort_by_key(|&(subtopology, partition)| Reverse((partition, subtopology)));
            let mut leftovers = Vec::new();
            for task in stateful {
                for placed in 0..replicas {
                    let holds = |member: &&str| state.process_of(member).holds.contains(&task);
                    let under_quota = |member: &&str| state.count(member) < state.task_quota.quota;
                    let owner = state.previous_active.get(&task).copied();
                    let sticky = owner
                        .filter(|member| !holds(member) && under_quota(member))
                        .or_else(|| {
                            let candidates = state.previous_standbys.get(&task).into_iter();
                            let free = candidates.flatten().copied().filter(|m| !holds(m));
                            state.best_previous(free).filter(under_quota)
                        });
                    match sticky {
                        Some(member) => state.give(member, task, false),
                        None => {
                            leftovers.push((task, replicas - placed));
                            break;
                        }
                    }
                }
            }
            leftovers.sort_by_key(|&(task, _)| Reverse(task));
            let mut heap = state.processes_by_load();
            for (task, missing) in leftovers {
                for _ in 0..missing {
                    // Too few processes: the remaining replicas of the task are not placed.
                    if !state.place_standby(&mut heap, task) {
                        break;
                    }
                }
            }
        }
        state
            .targets
            .into_iter()
            .map(|(member, sets)| (member.to_owned(), sets))
            .collect()
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
                    member_id: id.to_string(),
                    process_id: process.to_string(),
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
        let targets = StickyAssignor.assign(&input);
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
        let targets = StickyAssignor.assign(&input);
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
        let targets = StickyAssignor.assign(&input);
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
