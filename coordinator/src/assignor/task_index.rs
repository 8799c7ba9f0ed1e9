//! The tasks of a topology as dense indices, and task sets built from them.

use super::AssignmentInput;
use crate::tasks::Tasks;

/// Whether two ids are equal, compared in line: ids are short, and a call to memcmp costs more
/// than the comparison. Up to 16 bytes, two (overlapping) words of each cover it.
#[inline]
pub(super) fn equal_in_line(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let len = a.len();
    if len != b.len() {
        return false;
    }
    let word = |text: &[u8], at: usize| u64::from_le_bytes(text[at..at + 8].try_into().unwrap());
    let half = |text: &[u8], at: usize| u32::from_le_bytes(text[at..at + 4].try_into().unwrap());
    match len {
        8..=16 => word(a, 0) == word(b, 0) && word(a, len - 8) == word(b, len - 8),
        4..8 => half(a, 0) == half(b, 0) && half(a, len - 4) == half(b, len - 4),
        0..4 => a.iter().zip(b).all(|(a, b)| a == b),
        _ => a == b,
    }
}

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

    /// The position of subtopology `id`, trying `hint` first: members list their tasks by
    /// subtopology in id order, so the one found last, or the one after it, is likely.
    pub(super) fn position(&self, id: &str, hint: usize) -> Option<usize> {
        self.at(hint, id)
            .or_else(|| self.at(hint + 1, id))
            .or_else(|| {
                self.subtopologies
                    .binary_search_by(|known| known.id.bytes().cmp(id.bytes()))
                    .ok()
            })
    }

    /// `index` when the subtopology there is `id`: a guess tried before the search.
    fn at(&self, index: usize, id: &str) -> Option<usize> {
        let subtopology = self.subtopologies.get(index)?;
        equal_in_line(subtopology.id, id).then_some(index)
    }

    /// The task, if the topology has it (members may report tasks of an older one).
    pub(super) fn task_of(subtopology: &Subtopology, partition: i32) -> Option<usize> {
        let partition = usize::try_from(partition).ok()?;
        (partition < subtopology.tasks).then_some(subtopology.first_task + partition)
    }

    /// Every task of `tasks` that the topology has.
    #[inline]
    pub(super) fn each(&self, tasks: &Tasks, visit: impl FnMut(usize)) {
        // Members of a new group hold nothing: no call for them.
        if !tasks.is_empty() {
            self.each_of_some(tasks, visit);
        }
    }

    fn each_of_some(&self, tasks: &Tasks, mut visit: impl FnMut(usize)) {
        let mut hint = 0;
        for (id, partitions) in tasks {
            if let Some(position) = self.position(id, hint) {
                hint = position + 1;
                let subtopology = &self.subtopologies[position];
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

#[cfg(test)]
mod tests {
    use super::equal_in_line;

    #[test]
    fn ids_compare_equal_exactly_when_they_are() {
        let ids: Vec<String> = (0..40)
            .map(|len| (0..len).map(|i| char::from(b'a' + (i % 7) as u8)).collect())
            .collect();
        for a in &ids {
            for b in &ids {
                assert_eq!(equal_in_line(a, b), a == b, "{a:?} {b:?}");
                // The same length, one byte different anywhere.
                for at in 0..a.len() {
                    let mut other = a.clone().into_bytes();
                    other[at] = b'z';
                    let other = String::from_utf8(other).unwrap();
                    assert!(!equal_in_line(a, &other), "{a:?} {other:?}");
                }
            }
        }
    }
}
