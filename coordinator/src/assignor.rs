//! Task assignors: given the members and the tasks of a ready topology, the target tasks of every
//! member (spec section 6).

use std::cmp::{Ordering, Reverse};
use std::collections::{BTreeMap, BTreeSet};

use crate::java_order::{heap_add, heap_poll, sort_in_hash_map_order, string_hash, Insertion};
use crate::tasks::{TaskSets, Tasks};

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

/// No member, or no task.
const NONE: u32 = u32::MAX;

/// `usize` to a dense index; inputs with more than `u32::MAX` members or tasks cannot be held in
/// memory anyway.
fn index(value: usize) -> u32 {
    u32::try_from(value).expect("fewer than 2^32 members and tasks")
}

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

/// The tasks of the topology as dense indices: subtopology `s` (in id order) holds the tasks
/// `start[s]..start[s + 1]`, partition `p` being task `start[s] + p`, so task order is
/// (subtopology id, partition) order.
struct TaskIndex<'a> {
    subtopologies: Vec<&'a str>,
    start: Vec<usize>,
    stateful: Vec<bool>,
}

impl<'a> TaskIndex<'a> {
    fn new(input: &'a AssignmentInput) -> Self {
        let mut start = vec![0];
        let mut total = 0;
        for count in input.task_counts.values() {
            total += usize::try_from(*count).unwrap_or(0);
            start.push(total);
        }
        TaskIndex {
            subtopologies: input.task_counts.keys().map(String::as_str).collect(),
            start,
            stateful: input
                .task_counts
                .keys()
                .map(|subtopology| input.stateful.contains(subtopology))
                .collect(),
        }
    }

    fn len(&self) -> usize {
        self.start[self.subtopologies.len()]
    }

    fn count(&self, subtopology: usize) -> usize {
        self.start[subtopology + 1] - self.start[subtopology]
    }

    fn subtopology(&self, id: &str) -> Option<usize> {
        self.subtopologies.binary_search(&id).ok()
    }

    /// The task, if the topology has it (members may report tasks of an older one).
    fn task(&self, subtopology: usize, partition: i32) -> Option<usize> {
        let partition = usize::try_from(partition).ok()?;
        (partition < self.count(subtopology)).then(|| self.start[subtopology] + partition)
    }

    /// Every task of `tasks` that the topology has.
    fn each(&self, tasks: &Tasks, mut visit: impl FnMut(usize)) {
        for (id, partitions) in tasks {
            if let Some(subtopology) = self.subtopology(id) {
                partitions
                    .iter()
                    .filter_map(|&partition| self.task(subtopology, partition))
                    .for_each(&mut visit);
            }
        }
    }

    /// Tasks by (partition, subtopology id), the order in which Kafka's assignor walks them;
    /// `stateful_only` keeps the tasks of stateful subtopologies.
    fn by_partition(&self, stateful_only: bool) -> Vec<u32> {
        let subtopologies = self.subtopologies.len();
        let most = (0..subtopologies).map(|s| self.count(s)).max().unwrap_or(0);
        let mut order = Vec::with_capacity(self.len());
        for partition in 0..most {
            for subtopology in 0..subtopologies {
                if partition < self.count(subtopology)
                    && (!stateful_only || self.stateful[subtopology])
                {
                    order.push(index(self.start[subtopology] + partition));
                }
            }
        }
        order
    }

    /// `tasks` (ascending) as task sets by subtopology.
    fn to_tasks(&self, tasks: &[u32]) -> Tasks {
        let mut out = Tasks::new();
        let mut rest = tasks;
        let mut subtopology = 0;
        while let Some(&first) = rest.first() {
            while first as usize >= self.start[subtopology + 1] {
                subtopology += 1;
            }
            let end = self.start[subtopology + 1];
            let run = rest.partition_point(|&task| (task as usize) < end);
            let base = self.start[subtopology];
            let partitions = rest[..run]
                .iter()
                .map(|&task| (task as usize - base) as i32);
            out.insert(
                self.subtopologies[subtopology].to_owned(),
                partitions.collect(),
            );
            rest = &rest[run..];
        }
        out
    }
}

/// Members (by their place in the input) grouped into processes, both in the orders of Kafka's
/// hash maps of them.
struct Processes {
    /// Per member, its process.
    process_of: Vec<u32>,
    /// Process `p`'s members are `members[start[p]..start[p + 1]]`, in the iteration order of
    /// Kafka's map of them.
    start: Vec<usize>,
    members: Vec<u32>,
}

impl Processes {
    fn new(input: &AssignmentInput) -> Self {
        let member_count = input.members.len();
        let process_hash: Vec<i32> = input
            .members
            .iter()
            .map(|member| string_hash(&member.process_id))
            .collect();
        // Processes by first appearance, through an open-addressing table keyed by Java's
        // hash (computed anyway for the order below), holding the first member of each.
        let slots = (2 * member_count).next_power_of_two();
        let mut table = vec![NONE; slots];
        let mut first_member: Vec<u32> = Vec::new();
        let mut appearance_of = Vec::with_capacity(member_count);
        for (member, spec) in input.members.iter().enumerate() {
            let mut slot = (process_hash[member] as u32).wrapping_mul(0x9E37_79B9) as usize;
            let appearance = loop {
                slot &= slots - 1;
                match table[slot] {
                    NONE => {
                        table[slot] = index(first_member.len());
                        first_member.push(index(member));
                        break first_member.len() - 1;
                    }
                    known => {
                        let first = first_member[known as usize] as usize;
                        if process_hash[first] == process_hash[member]
                            && input.members[first].process_id == spec.process_id
                        {
                            break known as usize;
                        }
                    }
                }
                slot += 1;
            };
            appearance_of.push(appearance);
        }
        // Kafka sizes its map of processes by the number of members and fills it with
        // computeIfAbsent; each process's map of members is a default one filled with put.
        let mut order: Vec<u32> = (0..index(first_member.len())).collect();
        sort_in_hash_map_order(
            &mut order,
            |appearance| process_hash[first_member[appearance as usize] as usize],
            Some(member_count),
            Insertion::ComputeIfAbsent,
        );
        let mut process_of_appearance = vec![0; order.len()];
        for (process, appearance) in order.iter().enumerate() {
            process_of_appearance[*appearance as usize] = index(process);
        }
        let process_of: Vec<u32> = appearance_of
            .iter()
            .map(|&appearance| process_of_appearance[appearance])
            .collect();
        // Members by process, each process's in input order, then in its map's order.
        let mut start = vec![0; order.len() + 1];
        for &process in &process_of {
            start[process as usize + 1] += 1;
        }
        for process in 0..order.len() {
            start[process + 1] += start[process];
        }
        let mut next = start.clone();
        let mut members = vec![0; member_count];
        for (member, &process) in process_of.iter().enumerate() {
            members[next[process as usize]] = index(member);
            next[process as usize] += 1;
        }
        if order.len() < member_count {
            let member_hash: Vec<i32> = input
                .members
                .iter()
                .map(|member| string_hash(&member.member_id))
                .collect();
            for process in 0..order.len() {
                let of_process = &mut members[start[process]..start[process + 1]];
                let hash = |member: u32| member_hash[member as usize];
                sort_in_hash_map_order(of_process, hash, None, Insertion::Put);
            }
        }
        Processes {
            process_of,
            start,
            members,
        }
    }

    fn len(&self) -> usize {
        self.start.len() - 1
    }
}

/// Who held what before: the previous active owner of each task, and the members that may
/// take a task over from their state: per task, those that held it as standby (furthest
/// reported offset first), then those that only report an offset for it (furthest first);
/// input order breaks ties.
struct Previous {
    active: Vec<u32>,
    /// Task `t`'s candidates are `candidates[start[t]..start[t + 1]]`; empty without any.
    start: Vec<usize>,
    candidates: Vec<u32>,
}

impl Previous {
    fn new(input: &AssignmentInput, tasks: &TaskIndex) -> Self {
        let mut active = vec![NONE; tasks.len()];
        // (task, held as standby, offset, member), to sort.
        let mut ranked: Vec<(u32, Reverse<(bool, i64)>, u32)> = Vec::new();
        // Per task, the last member (plus one) that marked it, so that no array needs clearing
        // between members.
        let mut offset_mark = Vec::new();
        let mut first_offset = Vec::new();
        let mut standby_mark = Vec::new();
        for (member, spec) in input.members.iter().enumerate() {
            let member = index(member);
            // Later members win, as in Kafka's map of previous owners.
            tasks.each(&spec.current.active, |task| active[task] = member);
            if spec.current.standby.is_empty() && spec.task_offsets.is_empty() {
                continue;
            }
            if offset_mark.is_empty() {
                offset_mark = vec![0; tasks.len()];
                first_offset = vec![0; tasks.len()];
                standby_mark = vec![0; tasks.len()];
            }
            let mark = member + 1;
            let reported = spec
                .task_offsets
                .iter()
                .filter_map(|(id, partition, offset)| {
                    let subtopology = tasks.subtopology(id)?;
                    Some((tasks.task(subtopology, *partition)?, *offset))
                });
            for (task, offset) in reported.clone() {
                if offset_mark[task] != mark {
                    offset_mark[task] = mark;
                    first_offset[task] = offset;
                }
            }
            tasks.each(&spec.current.standby, |task| {
                standby_mark[task] = mark;
                let offset = if offset_mark[task] == mark {
                    first_offset[task]
                } else {
                    0
                };
                ranked.push((index(task), Reverse((true, offset)), member));
            });
            for (task, offset) in reported {
                if standby_mark[task] != mark {
                    ranked.push((index(task), Reverse((false, offset)), member));
                }
            }
        }
        ranked.sort_unstable();
        let mut start = vec![0; tasks.len() + 1];
        for (task, _, _) in &ranked {
            start[*task as usize + 1] += 1;
        }
        for task in 0..tasks.len() {
            start[task + 1] += start[task];
        }
        Previous {
            active,
            start,
            candidates: ranked.into_iter().map(|(_, _, member)| member).collect(),
        }
    }

    fn active_owner(&self, task: usize) -> Option<u32> {
        Some(self.active[task]).filter(|&member| member != NONE)
    }

    fn candidates(&self, task: usize) -> &[u32] {
        &self.candidates[self.start[task]..self.start[task + 1]]
    }
}

/// One copy of a task given to a member; the copies of a task form a list.
struct Placement {
    member: u32,
    active: bool,
    /// The task's copy given before this one, or `NONE`.
    next: u32,
}

/// The assignment in progress, as flat per-member, per-process and per-task state.
struct Sticky<'a> {
    tasks: TaskIndex<'a>,
    processes: Processes,
    previous: Previous,
    /// Tasks per member.
    count: Vec<usize>,
    /// Tasks per process, and their load as Kafka computes it: tasks per member, a double.
    process_tasks: Vec<usize>,
    process_load: Vec<f64>,
    /// Per process, its members by task count as Kafka keeps them in a priority queue, laid out
    /// like `processes.members`; built when first needed, dropped when a task goes to a member
    /// by name.
    member_heaps: Vec<u32>,
    member_heap_built: Vec<bool>,
    /// Per task, its latest copy, and all copies.
    latest: Vec<u32>,
    placements: Vec<Placement>,
    active_quota: Quota,
    task_quota: Quota,
}

impl<'a> Sticky<'a> {
    fn new(input: &'a AssignmentInput, replicas: usize) -> Self {
        let tasks = TaskIndex::new(input);
        let processes = Processes::new(input);
        let previous = Previous::new(input, &tasks);
        let members = input.members.len();
        let stateful_tasks: usize = (0..tasks.subtopologies.len())
            .filter(|&s| tasks.stateful[s])
            .map(|s| tasks.count(s))
            .sum();
        let active_quota = Quota::new(tasks.len(), members);
        let task_quota = Quota::new(
            tasks.len() + stateful_tasks.saturating_mul(replicas),
            members,
        );
        Sticky {
            count: vec![0; members],
            process_tasks: vec![0; processes.len()],
            process_load: vec![0.0; processes.len()],
            member_heaps: vec![0; members],
            member_heap_built: vec![false; processes.len()],
            latest: vec![NONE; tasks.len()],
            placements: Vec::with_capacity(tasks.len()),
            tasks,
            processes,
            previous,
            active_quota,
            task_quota,
        }
    }

    fn process_of(&self, member: u32) -> usize {
        self.processes.process_of[member as usize] as usize
    }

    fn holds(&self, process: usize, task: usize) -> bool {
        let mut copy = self.latest[task];
        while copy != NONE {
            let placement = &self.placements[copy as usize];
            if self.process_of(placement.member) == process {
                return true;
            }
            copy = placement.next;
        }
        false
    }

    fn give_to(&mut self, member: u32, task: usize, active: bool) {
        let process = self.process_of(member);
        self.count[member as usize] += 1;
        let count = self.count[member as usize];
        self.process_tasks[process] += 1;
        let size = self.processes.start[process + 1] - self.processes.start[process];
        self.process_load[process] = self.process_tasks[process] as f64 / size as f64;
        self.placements.push(Placement {
            member,
            active,
            next: self.latest[task],
        });
        self.latest[task] = index(self.placements.len() - 1);
        self.task_quota.record(count);
        if active {
            self.active_quota.record(count);
        }
    }

    /// Gives `task` to `member` by name, which drops its process's queue of members by load.
    fn give(&mut self, member: u32, task: usize, active: bool) {
        let process = self.process_of(member);
        self.member_heap_built[process] = false;
        self.give_to(member, task, active);
    }

    /// Gives `task` to the least loaded member of `process`.
    fn give_least_loaded(&mut self, process: usize, task: usize, active: bool) {
        let range = self.processes.start[process]..self.processes.start[process + 1];
        let size = range.len();
        if size == 1 {
            self.give_to(self.processes.members[range.start], task, active);
            return;
        }
        let count = &self.count;
        let by_count = |a: u32, b: u32| count[a as usize].cmp(&count[b as usize]);
        let heap = &mut self.member_heaps[range.clone()];
        if !self.member_heap_built[process] {
            for (len, &member) in self.processes.members[range].iter().enumerate() {
                heap_add(heap, len, member, by_count);
            }
            self.member_heap_built[process] = true;
        }
        let member = heap_poll(heap, size, by_count).expect("a process has members");
        self.give_to(member, task, active);
        let count = &self.count;
        let heap = &mut self.member_heaps[self.processes.start[process]..];
        heap_add(heap, size - 1, member, |a, b| {
            count[a as usize].cmp(&count[b as usize])
        });
    }

    /// The first of `candidates`, replaced by a later one only if both its process and itself
    /// carry strictly less.
    fn best_previous(&self, candidates: impl Iterator<Item = u32>) -> Option<u32> {
        candidates.reduce(|best, candidate| {
            let lighter = self.process_load[self.process_of(candidate)]
                < self.process_load[self.process_of(best)];
            if lighter && self.count[candidate as usize] < self.count[best as usize] {
                candidate
            } else {
                best
            }
        })
    }

    /// Every process, in Kafka's order, in a priority queue by load.
    fn processes_by_load(&self) -> Vec<u32> {
        let mut heap = vec![0; self.processes.len()];
        for process in 0..heap.len() {
            heap_add(&mut heap, process, index(process), |a, b| {
                self.by_process_load(a, b)
            });
        }
        heap
    }

    fn by_process_load(&self, a: u32, b: u32) -> Ordering {
        self.process_load[a as usize].total_cmp(&self.process_load[b as usize])
    }

    /// Places one standby of `task` on the least loaded process that holds no copy of it,
    /// taking processes from `heap` as Kafka does: one after the other until one fits, then
    /// back in the reverse order. `polled` is scratch space.
    fn place_standby(&mut self, heap: &mut [u32], polled: &mut Vec<u32>, task: usize) -> bool {
        let mut len = heap.len();
        let mut placed = false;
        while let Some(process) = heap_poll(heap, len, |a, b| self.by_process_load(a, b)) {
            len -= 1;
            polled.push(process);
            if !self.holds(process as usize, task) {
                self.give_least_loaded(process as usize, task, false);
                placed = true;
                break;
            }
        }
        while let Some(process) = polled.pop() {
            heap_add(heap, len, process, |a, b| self.by_process_load(a, b));
            len += 1;
        }
        placed
    }

    /// The targets, built once from the placements.
    fn targets(&self, input: &AssignmentInput) -> BTreeMap<String, TaskSets> {
        // Per member, its active then its standby tasks, ascending: a counting sort of the
        // copies, walking the tasks in order.
        let lists = 2 * input.members.len();
        let list_of =
            |placement: &Placement| 2 * placement.member as usize + usize::from(!placement.active);
        let mut start = vec![0; lists + 1];
        for placement in &self.placements {
            start[list_of(placement) + 1] += 1;
        }
        for list in 0..lists {
            start[list + 1] += start[list];
        }
        let mut next = start.clone();
        let mut sorted = vec![0; self.placements.len()];
        for task in 0..self.tasks.len() {
            let mut copy = self.latest[task];
            while copy != NONE {
                let placement = &self.placements[copy as usize];
                let list = list_of(placement);
                sorted[next[list]] = index(task);
                next[list] += 1;
                copy = placement.next;
            }
        }
        let list = |list: usize| self.tasks.to_tasks(&sorted[start[list]..start[list + 1]]);
        input
            .members
            .iter()
            .enumerate()
            .map(|(member, spec)| {
                let sets = TaskSets {
                    active: list(2 * member),
                    standby: list(2 * member + 1),
                    warmup: Tasks::new(),
                };
                (spec.member_id.clone(), sets)
            })
            .collect()
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
        let replicas = usize::try_from(input.num_standby_replicas).unwrap_or(0);
        let mut state = Sticky::new(input, replicas);

        // Actives: the previous owner, then the best previous standby, within the active quota.
        let mut unassigned = Vec::new();
        for task in state.tasks.by_partition(false) {
            let task = task as usize;
            match state.previous.active_owner(task) {
                Some(owner) if state.count[owner as usize] < state.active_quota.quota => {
                    state.give(owner, task, true)
                }
                _ => unassigned.push(task),
            }
        }
        let mut rest = vec![false; state.tasks.len()];
        for task in unassigned {
            let candidates = state.previous.candidates(task).iter().copied();
            match state.best_previous(candidates) {
                Some(member) if state.count[member as usize] < state.active_quota.quota => {
                    state.give(member, task, true)
                }
                _ => rest[task] = true,
            }
        }
        let mut heap = state.processes_by_load();
        let len = heap.len();
        for task in (0..state.tasks.len()).filter(|&task| rest[task]) {
            let process = heap_poll(&mut heap, len, |a, b| state.by_process_load(a, b))
                .expect("at least one process");
            state.give_least_loaded(process as usize, task, true);
            heap_add(&mut heap, len - 1, process, |a, b| {
                state.by_process_load(a, b)
            });
        }

        // Standbys of stateful tasks, by descending (partition, subtopology id).
        if replicas > 0 {
            let mut missing = vec![0; state.tasks.len()];
            for task in state.tasks.by_partition(true).into_iter().rev() {
                let task = task as usize;
                for placed in 0..replicas {
                    let holds = |member: u32| state.holds(state.process_of(member), task);
                    let under_quota =
                        |member: &u32| state.count[*member as usize] < state.task_quota.quota;
                    let owner = state.previous.active_owner(task);
                    let sticky = owner
                        .filter(|&member| !holds(member) && under_quota(&member))
                        .or_else(|| {
                            let candidates = state.previous.candidates(task).iter().copied();
                            let free = candidates.filter(|&member| !holds(member));
                            state.best_previous(free).filter(under_quota)
                        });
                    match sticky {
                        Some(member) => state.give(member, task, false),
                        None => {
                            missing[task] = replicas - placed;
                            break;
                        }
                    }
                }
            }
            let mut heap = state.processes_by_load();
            let mut polled = Vec::new();
            for task in (0..state.tasks.len()).rev() {
                for _ in 0..missing[task] {
                    // Too few processes: the remaining replicas of the task are not placed.
                    if !state.place_standby(&mut heap, &mut polled, task) {
                        break;
                    }
                }
            }
        }
        state.targets(input)
    }
}

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
