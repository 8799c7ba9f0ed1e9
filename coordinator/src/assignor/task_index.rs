//! The tasks of a topology as dense indices, and task sets built from them.

use std::collections::BTreeSet;

use super::AssignmentInput;
use crate::tasks::Tasks;

pub(super) struct Subtopology<'a> {
    pub(super) id: &'a str,
    /// Its partition `p` is task `first_task + p`.
    pub(super) first_task: usize,
    pub(super) tasks: usize,
    pub(super) stateful: bool,
}

/// The tasks of the topology as dense indices, subtopologies in id order, so that task order
/// is (subtopology id, partition) order.
pub(super) struct TaskIndex<'a> {
    pub(super) subtopologies: Vec<Subtopology<'a>>,
    pub(super) len: usize,
}

impl<'a> TaskIndex<'a> {
    pub(super) fn new(input: &'a AssignmentInput) -> Self {
        let mut len = 0;
        let subtopologies = input
            .task_counts
            .iter()
            .map(|(id, count)| {
                let tasks = usize::try_from(*count).unwrap_or(0);
                len += tasks;
                Subtopology {
                    id,
                    first_task: len - tasks,
                    tasks,
                    stateful: input.stateful.contains(id),
                }
            })
            .collect();
        TaskIndex { subtopologies, len }
    }

    pub(super) fn subtopology(&self, id: &str) -> Option<&Subtopology<'a>> {
        let found = self
            .subtopologies
            .binary_search_by(|known| known.id.cmp(id));
        found.ok().map(|at| &self.subtopologies[at])
    }

    /// The task, if the topology has it (members may report tasks of an older one).
    pub(super) fn task_of(subtopology: &Subtopology, partition: i32) -> Option<usize> {
        let partition = usize::try_from(partition).ok()?;
        (partition < subtopology.tasks).then_some(subtopology.first_task + partition)
    }

    /// Every task of `tasks` that the topology has.
    pub(super) fn each(&self, tasks: &Tasks, mut visit: impl FnMut(usize)) {
        for (id, partitions) in tasks {
            if let Some(subtopology) = self.subtopology(id) {
                partitions
                    .iter()
                    .filter_map(|&partition| Self::task_of(subtopology, partition))
                    .for_each(&mut visit);
            }
        }
    }

    /// Tasks by (partition, subtopology id), the order in which Kafka's assignor walks them;
    /// `stateful_only` keeps the tasks of stateful subtopologies.
    pub(super) fn by_partition(
        &self,
        stateful_only: bool,
    ) -> impl DoubleEndedIterator<Item = usize> + '_ {
        let most = self.subtopologies.iter().map(|s| s.tasks).max();
        (0..most.unwrap_or(0)).flat_map(move |partition| {
            self.subtopologies
                .iter()
                .filter(move |s| partition < s.tasks && (s.stateful || !stateful_only))
                .map(move |s| s.first_task + partition)
        })
    }
}

/// Builds task sets by subtopology from ascending tasks, with as few comparisons of
/// subtopology ids as a `BTreeMap` allows: one key is inserted; two or more come in bulk, and
/// when they are many, as a clone of a map of every subtopology whose empty sets are then
/// dropped, which compares no keys at all.
pub(super) struct TasksBuilder {
    /// Every subtopology that has tasks, with an empty set; and their indices.
    template: Tasks,
    template_subtopologies: Vec<usize>,
    /// Reused space: partitions, and runs of one subtopology (its index, where its run ends).
    partitions: Vec<i32>,
    runs: Vec<(usize, usize)>,
}

impl TasksBuilder {
    pub(super) fn new(index: &TaskIndex) -> Self {
        let with_tasks =
            || (0..index.subtopologies.len()).filter(|&s| index.subtopologies[s].tasks > 0);
        TasksBuilder {
            template: with_tasks()
                .map(|s| (index.subtopologies[s].id.to_owned(), BTreeSet::new()))
                .collect(),
            template_subtopologies: with_tasks().collect(),
            partitions: Vec::new(),
            runs: Vec::new(),
        }
    }

    fn partition_set(&self, run: usize) -> BTreeSet<i32> {
        // A set that fits one B-tree leaf is built by insertion, larger ones in bulk.
        const ONE_LEAF: usize = 11;
        let start = if run == 0 { 0 } else { self.runs[run - 1].1 };
        let partitions = self.partitions[start..self.runs[run].1].iter().copied();
        if partitions.len() <= ONE_LEAF {
            let mut set = BTreeSet::new();
            set.extend(partitions);
            set
        } else {
            partitions.collect()
        }
    }

    pub(super) fn build(&mut self, index: &TaskIndex, tasks: impl Iterator<Item = usize>) -> Tasks {
        self.partitions.clear();
        self.runs.clear();
        let mut subtopology = 0;
        for task in tasks {
            let mut known = &index.subtopologies[subtopology];
            while task >= known.first_task + known.tasks {
                subtopology += 1;
                known = &index.subtopologies[subtopology];
            }
            match self.runs.last_mut() {
                Some((last, end)) if *last == subtopology => *end += 1,
                _ => self.runs.push((subtopology, self.partitions.len() + 1)),
            }
            self.partitions.push((task - known.first_task) as i32);
        }
        let id = |run: usize| index.subtopologies[self.runs[run].0].id.to_owned();
        match self.runs.len() {
            0 => Tasks::new(),
            1 => Tasks::from([(id(0), self.partition_set(0))]),
            runs if 2 * runs < self.template.len() => (0..runs)
                .map(|run| (id(run), self.partition_set(run)))
                .collect(),
            _ => {
                let mut out = self.template.clone();
                let mut run = 0;
                for (position, set) in out.values_mut().enumerate() {
                    let next = self.runs.get(run).map(|(subtopology, _)| *subtopology);
                    if next == Some(self.template_subtopologies[position]) {
                        *set = self.partition_set(run);
                        run += 1;
                    }
                }
                out.retain(|_, set| !set.is_empty());
                out
            }
        }
    }
}
