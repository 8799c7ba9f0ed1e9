//! The sticky assignor's steps on dense indices: members by their place in the input, processes
//! and tasks numbered once, state in flat vectors, the targets built once at the end.

use std::cmp::{Ordering, Reverse};

use super::task_index::{equal_in_line, TaskIndex};
use super::{AssignmentInput, StickyAssignor, Targets, TaskAssignor};
use crate::java_order::{heap_add, heap_poll, sort_in_hash_map_order, Insertion};

/// No member, task copy or process.
const NONE: u32 = u32::MAX;

/// `usize` to a dense index.
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

#[derive(Clone, Copy)]
struct Member {
    process: u32,
    /// Tasks it has been given.
    count: usize,
}

struct Process {
    /// Its members are `slots[first_slot..first_slot + size]`, in the iteration order of
    /// Kafka's map of them.
    first_slot: usize,
    size: usize,
    tasks: usize,
    /// Whether `heaps` holds its members by task count as Kafka's priority queue of them; it
    /// is built when first needed and dropped when a task goes to a member by name.
    heap_built: bool,
}

/// Members (by their place in the input) grouped into processes, both in the orders of Kafka's
/// hash maps of them: the members, the processes, and the processes' members (slots). Reads the
/// input once; the Java hashes are the ones the input's ids carry.
fn group_into_processes(input: &AssignmentInput) -> (Vec<Member>, Vec<Process>, Vec<u32>) {
    let member_count = input.members.len();
    let mut member_hashes: Vec<i32> = Vec::with_capacity(member_count);
    // Processes by first appearance, through an open-addressing table keyed by Java's hash
    // (which the order below needs anyway): per process its id and its hash.
    let mut table = vec![NONE; (2 * member_count).next_power_of_two()];
    let mask = table.len() - 1;
    let mut process_ids: Vec<&str> = Vec::with_capacity(member_count);
    let mut process_hashes: Vec<i32> = Vec::with_capacity(member_count);
    let mut members: Vec<Member> = Vec::with_capacity(member_count);
    for spec in &input.members {
        member_hashes.push(spec.member_id.hash());
        let hash = spec.process_id.hash();
        let mut slot = (hash as u32).wrapping_mul(0x9E37_79B9) as usize;
        let appearance = loop {
            slot &= mask;
            match table[slot] {
                NONE => {
                    table[slot] = index(process_ids.len());
                    process_ids.push(&spec.process_id);
                    process_hashes.push(hash);
                    break index(process_ids.len() - 1);
                }
                known => {
                    if process_hashes[known as usize] == hash
                        && equal_in_line(process_ids[known as usize], &spec.process_id)
                    {
                        break known;
                    }
                }
            }
            slot += 1;
        };
        members.push(Member {
            process: appearance,
            count: 0,
        });
    }
    // Kafka sizes its map of processes by the number of members and fills it with
    // computeIfAbsent; each process's map of members is a default one filled with put.
    let mut order: Vec<u32> = (0..index(process_ids.len())).collect();
    let process_hash = |appearance: u32| process_hashes[appearance as usize];
    sort_in_hash_map_order(
        &mut order,
        process_hash,
        Some(member_count),
        Insertion::ComputeIfAbsent,
    );
    // The table, no longer needed, numbers the processes by appearance.
    for (process, &appearance) in order.iter().enumerate() {
        table[appearance as usize] = index(process);
    }
    let mut processes: Vec<Process> = (0..order.len())
        .map(|_| Process {
            first_slot: 0,
            size: 0,
            tasks: 0,
            heap_built: false,
        })
        .collect();
    for member in &mut members {
        member.process = table[member.process as usize];
        processes[member.process as usize].size += 1;
    }
    // Each process's members in input order (the table holds each process's next slot), then
    // in its map's.
    let mut first_slot = 0;
    for (process, state) in processes.iter_mut().enumerate() {
        state.first_slot = first_slot;
        table[process] = index(first_slot);
        first_slot += state.size;
    }
    let mut slots = vec![0; member_count];
    for (member, state) in members.iter().enumerate() {
        let next = &mut table[state.process as usize];
        slots[*next as usize] = index(member);
        *next += 1;
    }
    if processes.len() < member_count {
        for process in &processes {
            let of_process = &mut slots[process.first_slot..process.first_slot + process.size];
            let member_hash = |member: u32| member_hashes[member as usize];
            sort_in_hash_map_order(of_process, member_hash, None, Insertion::Put);
        }
    }
    (members, processes, slots)
}

#[derive(Clone, Copy)]
struct Task {
    /// Its latest copy given, or `NONE`.
    latest: u32,
    /// Its previous active owner, or `NONE`.
    previous_owner: u32,
    /// The members that may take it over from their state are
    /// `candidates[first_candidate..end_candidate]`.
    first_candidate: u32,
    end_candidate: u32,
    /// Copies left to place on the least loaded processes.
    by_load: usize,
}

/// A member that may take a task over from its state: it held the task as standby, or only
/// reports an offset for it.
#[derive(Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord)]
struct Candidate {
    /// Standbys first, then furthest offset first, then input order.
    rank: (Reverse<(bool, i64)>, u32),
    task: u32,
}

/// Fills in who held each task before: its previous active owner, and the members that may
/// take it over from their state: those that held it as standby (furthest reported offset
/// first), then those that only report an offset for it (furthest first); input order breaks
/// ties. Returns the candidates.
fn read_previous(input: &AssignmentInput, index_of: &TaskIndex, tasks: &mut [Task]) -> Vec<u32> {
    let mut found: Vec<Candidate> = Vec::new();
    // Per task, the last member (plus one) that marked it, so that nothing needs clearing
    // between members; and the first offset that member reported for it.
    let mut marks: Vec<(u32, i64, u32)> = Vec::new();
    for (member, spec) in input.members.iter().enumerate() {
        let member = index(member);
        // Later members win, as in Kafka's map of previous owners.
        index_of.each(&spec.current.active, |task| {
            tasks[task].previous_owner = member;
        });
        if spec.current.standby.is_empty() && spec.task_offsets.is_empty() {
            continue;
        }
        if marks.is_empty() {
            marks = vec![(0, 0, 0); index_of.len];
        }
        let mark = member + 1;
        let mut reported: Vec<(usize, i64)> = Vec::with_capacity(spec.task_offsets.len());
        // Offsets come grouped by subtopology: most are found at the last one's position.
        let mut hint = 0;
        for (id, partition, offset) in &spec.task_offsets {
            let Some(position) = index_of.position(id, hint) else {
                continue;
            };
            hint = position;
            let subtopology = &index_of.subtopologies[position];
            if let Some(task) = TaskIndex::task_of(subtopology, *partition) {
                reported.push((task, *offset));
            }
        }
        for &(task, offset) in &reported {
            let (offset_mark, first_offset, _) = &mut marks[task];
            if *offset_mark != mark {
                *offset_mark = mark;
                *first_offset = offset;
            }
        }
        index_of.each(&spec.current.standby, |task| {
            let (offset_mark, first_offset, standby_mark) = &mut marks[task];
            *standby_mark = mark;
            let offset = if *offset_mark == mark {
                *first_offset
            } else {
                0
            };
            let rank = (Reverse((true, offset)), member);
            found.push(Candidate {
                rank,
                task: index(task),
            });
        });
        for (task, offset) in reported {
            if marks[task].2 != mark {
                let rank = (Reverse((false, offset)), member);
                found.push(Candidate {
                    rank,
                    task: index(task),
                });
            }
        }
    }
    // By task (counting), then each task's by rank.
    for candidate in &found {
        tasks[candidate.task as usize].end_candidate += 1;
    }
    let mut end = 0;
    for task in tasks.iter_mut() {
        task.first_candidate = end;
        end += task.end_candidate;
        task.end_candidate = task.first_candidate;
    }
    let mut sorted = vec![Candidate::default(); found.len()];
    for candidate in found {
        let task = &mut tasks[candidate.task as usize];
        sorted[task.end_candidate as usize] = candidate;
        task.end_candidate += 1;
    }
    let mut candidates = Vec::with_capacity(sorted.len());
    for task in tasks.iter() {
        let of_task = &mut sorted[task.first_candidate as usize..task.end_candidate as usize];
        of_task.sort_unstable();
        candidates.extend(of_task.iter().map(|candidate| candidate.rank.1));
    }
    candidates
}

/// One copy of a task given to a member.
struct Placement {
    member: u32,
    active: bool,
    /// The task's copy given before this one, or `NONE`.
    previous_copy: u32,
}

/// The assignment in progress, as flat per-member, per-process and per-task state.
struct Sticky<'a> {
    index: &'a TaskIndex<'a>,
    members: Vec<Member>,
    processes: Vec<Process>,
    /// Per process, its tasks per member, a double as in Kafka, kept as its bits: loads are
    /// never negative or NaN, where the bits order as the numbers do. Apart from `processes`,
    /// as the queues of processes by load read nothing else.
    loads: Vec<u64>,
    slots: Vec<u32>,
    /// Laid out like `slots`, see `Process::heap_built`.
    heaps: Vec<u32>,
    tasks: Vec<Task>,
    candidates: Vec<u32>,
    placements: Vec<Placement>,
    active_quota: Quota,
    task_quota: Quota,
}

impl<'a> Sticky<'a> {
    fn new(input: &AssignmentInput, index: &'a TaskIndex<'a>, replicas: usize) -> Self {
        let (members, processes, slots) = group_into_processes(input);
        let mut tasks = vec![
            Task {
                latest: NONE,
                previous_owner: NONE,
                first_candidate: 0,
                end_candidate: 0,
                by_load: 0,
            };
            index.len
        ];
        let candidates = read_previous(input, index, &mut tasks);
        let stateful_tasks: usize = index
            .subtopologies
            .iter()
            .filter(|s| s.stateful)
            .map(|s| s.tasks)
            .sum();
        let member_count = members.len();
        Sticky {
            active_quota: Quota::new(index.len, member_count),
            task_quota: Quota::new(
                index.len + stateful_tasks.saturating_mul(replicas),
                member_count,
            ),
            placements: Vec::with_capacity(index.len),
            heaps: vec![0; member_count],
            index,
            members,
            loads: vec![0f64.to_bits(); processes.len()],
            processes,
            slots,
            tasks,
            candidates,
        }
    }

    fn count(&self, member: u32) -> usize {
        self.members[member as usize].count
    }

    fn load_of(&self, member: u32) -> u64 {
        self.loads[self.members[member as usize].process as usize]
    }

    fn previous_owner(&self, task: usize) -> Option<u32> {
        Some(self.tasks[task].previous_owner).filter(|&member| member != NONE)
    }

    fn candidates(&self, task: usize) -> impl Iterator<Item = u32> + '_ {
        let task = &self.tasks[task];
        let range = task.first_candidate as usize..task.end_candidate as usize;
        self.candidates[range].iter().copied()
    }

    fn holds(&self, process: u32, task: usize) -> bool {
        let mut copy = self.tasks[task].latest;
        while copy != NONE {
            let placement = &self.placements[copy as usize];
            if self.members[placement.member as usize].process == process {
                return true;
            }
            copy = placement.previous_copy;
        }
        false
    }

    fn give_to(&mut self, member: u32, task: usize, active: bool) {
        let state = &mut self.members[member as usize];
        state.count += 1;
        let count = state.count;
        let process = &mut self.processes[state.process as usize];
        process.tasks += 1;
        self.loads[state.process as usize] = (process.tasks as f64 / process.size as f64).to_bits();
        let task_state = &mut self.tasks[task];
        self.placements.push(Placement {
            member,
            active,
            previous_copy: task_state.latest,
        });
        task_state.latest = index(self.placements.len() - 1);
        self.task_quota.record(count);
        if active {
            self.active_quota.record(count);
        }
    }

    /// Gives `task` to `member` by name, which drops its process's queue of members by load.
    fn give(&mut self, member: u32, task: usize, active: bool) {
        let process = self.members[member as usize].process;
        self.processes[process as usize].heap_built = false;
        self.give_to(member, task, active);
    }

    /// Gives `task` to the least loaded member of `process`.
    fn give_least_loaded(&mut self, process: u32, task: usize, active: bool) {
        let state = &self.processes[process as usize];
        let (first, size, built) = (state.first_slot, state.size, state.heap_built);
        if size == 1 {
            self.give_to(self.slots[first], task, active);
            return;
        }
        let members = &self.members;
        let by_count = |a: u32, b: u32| members[a as usize].count.cmp(&members[b as usize].count);
        let heap = &mut self.heaps[first..first + size];
        if !built {
            for (len, &member) in self.slots[first..first + size].iter().enumerate() {
                heap_add(heap, len, member, by_count);
            }
        }
        let member = heap_poll(heap, size, by_count).expect("a process has members");
        self.give_to(member, task, active);
        let members = &self.members;
        heap_add(&mut self.heaps[first..], size - 1, member, |a, b| {
            members[a as usize].count.cmp(&members[b as usize].count)
        });
        self.processes[process as usize].heap_built = true;
    }

    /// The first of `candidates`, replaced by a later one only if both its process and itself
    /// carry strictly less.
    fn best_previous(&self, candidates: impl Iterator<Item = u32>) -> Option<u32> {
        candidates.reduce(|best, candidate| {
            let lighter = self.load_of(candidate) < self.load_of(best);
            if lighter && self.count(candidate) < self.count(best) {
                candidate
            } else {
                best
            }
        })
    }

    fn by_process_load(&self, a: u32, b: u32) -> Ordering {
        self.loads[a as usize].cmp(&self.loads[b as usize])
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

    /// Places one standby of `task` on the least loaded process that holds no copy of it,
    /// taking processes from `heap` as Kafka does: one after the other until one fits, then
    /// back in the reverse order. `polled` is scratch space.
    fn place_standby(&mut self, heap: &mut [u32], polled: &mut Vec<u32>, task: usize) -> bool {
        let mut len = heap.len();
        let mut placed = false;
        while let Some(process) = heap_poll(heap, len, |a, b| self.by_process_load(a, b)) {
            len -= 1;
            polled.push(process);
            if !self.holds(process, task) {
                self.give_least_loaded(process, task, false);
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

    /// The targets, built once from the placements: counted per member and type, then filled
    /// walking the tasks upwards, so that every list is ascending.
    fn targets(self) -> Targets {
        let list_of =
            |placement: &Placement| 2 * placement.member as usize + usize::from(!placement.active);
        let mut starts = vec![0u32; 2 * self.members.len() + 1];
        for placement in &self.placements {
            starts[list_of(placement)] += 1;
        }
        // Counts to starts, the running sum in a register (through memory, each step would
        // wait for the previous store).
        let mut start = 0;
        for next in &mut starts {
            let count = *next;
            *next = start;
            start += count;
        }
        let mut next = starts.clone();
        let mut tasks = vec![0u32; self.placements.len()];
        for (task, state) in self.tasks.iter().enumerate() {
            let mut copy = state.latest;
            while copy != NONE {
                let placement = &self.placements[copy as usize];
                let at = &mut next[list_of(placement)];
                tasks[*at as usize] = index(task);
                *at += 1;
                copy = placement.previous_copy;
            }
        }
        let subtopologies = self
            .index
            .subtopologies
            .iter()
            .map(|s| (s.id.to_owned(), index(s.first_task)))
            .collect();
        Targets::new(subtopologies, starts, tasks)
    }
}

impl TaskAssignor for StickyAssignor {
    fn name(&self) -> &'static str {
        "sticky"
    }

    fn assign(&self, input: &AssignmentInput) -> Targets {
        if input.members.is_empty() {
            return Targets::default();
        }
        let replicas = usize::try_from(input.num_standby_replicas).unwrap_or(0);
        let index = TaskIndex::new(input);
        let mut state = Sticky::new(input, &index, replicas);

        // Actives: the previous owner, then the best previous standby, within the active quota.
        let mut unassigned = Vec::with_capacity(index.len);
        for task in index.by_partition(false) {
            match state.previous_owner(task) {
                Some(owner) if state.count(owner) < state.active_quota.quota => {
                    state.give(owner, task, true)
                }
                _ => unassigned.push(task),
            }
        }
        for task in unassigned {
            match state.best_previous(state.candidates(task)) {
                Some(member) if state.count(member) < state.active_quota.quota => {
                    state.give(member, task, true)
                }
                _ => state.tasks[task].by_load = 1,
            }
        }
        let mut heap = state.processes_by_load();
        let len = heap.len();
        for task in 0..index.len {
            if state.tasks[task].by_load == 0 {
                continue;
            }
            state.tasks[task].by_load = 0;
            let process = heap_poll(&mut heap, len, |a, b| state.by_process_load(a, b))
                .expect("at least one process");
            state.give_least_loaded(process, task, true);
            heap_add(&mut heap, len - 1, process, |a, b| {
                state.by_process_load(a, b)
            });
        }

        // Standbys of stateful tasks, by descending (partition, subtopology id).
        if replicas > 0 {
            for task in index.by_partition(true).rev() {
                for placed in 0..replicas {
                    let holds =
                        |member: u32| state.holds(state.members[member as usize].process, task);
                    let under_quota = |member: &u32| state.count(*member) < state.task_quota.quota;
                    let sticky = state
                        .previous_owner(task)
                        .filter(|&member| !holds(member) && under_quota(&member))
                        .or_else(|| {
                            let free = state.candidates(task).filter(|&member| !holds(member));
                            state.best_previous(free).filter(under_quota)
                        });
                    match sticky {
                        Some(member) => state.give(member, task, false),
                        None => {
                            state.tasks[task].by_load = replicas - placed;
                            break;
                        }
                    }
                }
            }
            let mut heap = state.processes_by_load();
            let mut polled = Vec::new();
            for task in (0..index.len).rev() {
                for _ in 0..state.tasks[task].by_load {
                    // Too few processes: the remaining replicas of the task are not placed.
                    if !state.place_standby(&mut heap, &mut polled, task) {
                        break;
                    }
                }
            }
        }
        state.targets()
    }
}
